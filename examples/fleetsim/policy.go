package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// The jitter kinds of -jitter.
const (
	jitterNone  = "none"  // exactly the ceiling
	jitterFull  = "full"  // uniform over [0, ceiling]
	jitterEqual = "equal" // uniform over [ceiling/2, ceiling]
	jitterAdded = "added" // ceiling + uniform(0, jitter max), then the cap
)

var jitterKinds = []string{jitterNone, jitterFull, jitterEqual, jitterAdded}

// ladder is an exponential backoff policy as the flags describe it.
type ladder struct {
	base      time.Duration
	factor    float64
	cap       time.Duration // 0: no cap
	attempts  int           // attempts in all, the first call included
	jitter    string
	jitterMax time.Duration // for jitterAdded
}

// oldLadder is the incident's policy (see the package doc).
var oldLadder = ladder{base: 5 * time.Second, factor: 2, cap: time.Minute, attempts: 200, jitter: jitterAdded, jitterMax: 5 * time.Second}

// fixedLadder is seed 000's fixed policy, the default of the flags.
var fixedLadder = ladder{base: 5 * time.Second, factor: 2, cap: time.Hour, attempts: 13, jitter: jitterFull, jitterMax: 5 * time.Second}

func (l ladder) validate() error {
	switch {
	case l.base <= 0:
		return fmt.Errorf("-base %s, want a delay > 0s", schedfmt.Duration(l.base))
	case !(l.factor >= 1) || l.factor > 1000:
		return fmt.Errorf("-factor %v, want a number from 1 to 1000", l.factor)
	case l.cap < 0:
		return fmt.Errorf("-cap %s, want a delay >= 0s (0 means no cap)", schedfmt.Duration(l.cap))
	case l.attempts < 1 || l.attempts > retrytest.DefaultFleetMaxAttempts:
		return fmt.Errorf("-attempts %d, want 1 to %d (the first call counts)", l.attempts, retrytest.DefaultFleetMaxAttempts)
	case l.jitterMax < 0:
		return fmt.Errorf("-jitter-max %s, want a delay >= 0s", schedfmt.Duration(l.jitterMax))
	}
	if slices.Contains(jitterKinds, l.jitter) {
		return nil
	}
	return fmt.Errorf("-jitter %q, want one of %q", l.jitter, jitterKinds)
}

// windows returns the window of each delay, as retrytest.Exponential
// builds it: window k is the wait before attempt k+2.
func (l ladder) windows() []retrytest.Window {
	switch l.jitter {
	case jitterFull:
		return retrytest.Exponential(l.base, l.factor, l.cap, l.attempts, retrytest.WithFullJitter())
	case jitterEqual:
		return retrytest.Exponential(l.base, l.factor, l.cap, l.attempts, retrytest.WithEqualJitter())
	case jitterAdded:
		ws := retrytest.Exponential(l.base, l.factor, 0, l.attempts)
		for i, w := range ws {
			ws[i] = retrytest.Window{Min: l.capped(w.Min), Max: l.capped(addSat(w.Min, l.jitterMax))}
		}
		return ws
	}
	return retrytest.Exponential(l.base, l.factor, l.cap, l.attempts)
}

// policy returns the policy the ladder describes. Jitter added before the
// cap is drawn as the old code did, min(cap, ceiling + uniform(0, max));
// the other kinds draw uniformly from their windows.
func (l ladder) policy() retrytest.Policy {
	if l.jitter != jitterAdded {
		return retrytest.LadderPolicy(l.windows()...)
	}
	ceilings := retrytest.Exponential(l.base, l.factor, 0, l.attempts)
	return func(failed int, rng *rand.Rand) retrytest.Decision {
		if failed < 0 || failed >= len(ceilings) {
			return retrytest.Decision{Reason: "exhausted"}
		}
		jitter := time.Duration(rng.Int64N(int64(l.jitterMax) + 1))
		return retrytest.Decision{Retry: true, Delay: l.capped(addSat(ceilings[failed].Min, jitter)), Reason: "backoff"}
	}
}

func (l ladder) capped(d time.Duration) time.Duration {
	if l.cap > 0 {
		return min(d, l.cap)
	}
	return d
}

func addSat(a, b time.Duration) time.Duration {
	if a > 1<<63-1-b {
		return 1<<63 - 1
	}
	return a + b
}

// String describes the ladder in a few words: "5s doubling, full jitter
// under a 1h cap, 13 attempts (12 retries)".
func (l ladder) String() string {
	growth := "x" + strconv.FormatFloat(l.factor, 'g', -1, 64)
	switch l.factor {
	case 1:
		growth = "constant"
	case 2:
		growth = "doubling"
	}
	capText := "a " + schedfmt.Duration(l.cap) + " cap"
	var shape string
	switch {
	case l.jitter == jitterAdded && l.cap > 0:
		shape = "jitter " + schedfmt.Window(0, l.jitterMax) + " added before " + capText
	case l.jitter == jitterAdded:
		shape = "jitter " + schedfmt.Window(0, l.jitterMax) + " added, no cap"
	case l.jitter == jitterNone && l.cap == 0:
		shape = "no jitter, no cap"
	case l.cap == 0:
		shape = l.jitter + " jitter, no cap"
	case l.jitter == jitterNone:
		shape = "no jitter, capped at " + schedfmt.Duration(l.cap)
	default:
		shape = l.jitter + " jitter under " + capText
	}
	count := fmt.Sprintf("%d attempts (%d retries)", l.attempts, l.attempts-1)
	switch l.attempts {
	case 1:
		count = "1 attempt (no retry)"
	case 2:
		count = "2 attempts (1 retry)"
	}
	return fmt.Sprintf("%s %s, %s, %s", schedfmt.Duration(l.base), growth, shape, count)
}

// table renders the ladder's windows as a schedule table: the window of
// each delay and of each attempt's offset. The first attempt whose delay
// reaches the cap exactly, when the ladder has one, is marked.
func (l ladder) table() string {
	ws := l.windows()
	rows := []schedfmt.Row{{Attempt: "1", Delay: "0s", At: "0s"}}
	var lo, hi time.Duration
	marked := false
	for i, w := range ws {
		lo, hi = addSat(lo, w.Min), addSat(hi, w.Max)
		r := schedfmt.Row{Attempt: strconv.Itoa(i + 2), Delay: span(w.Min, w.Max), At: span(lo, hi)}
		if !marked && l.cap > 0 && w.Max == l.cap {
			marked, r.Marked = true, true
			r.Reason = "the cap is reached"
			if l.jitter == jitterAdded && w.Min == w.Max {
				r.Reason = "jitter swallowed by the cap"
			}
		}
		rows = append(rows, r)
	}
	return schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String()
}

// span formats a window, or a single duration when it is exact.
func span(lo, hi time.Duration) string {
	if lo == hi {
		return schedfmt.Duration(lo)
	}
	return schedfmt.Window(lo, hi)
}
