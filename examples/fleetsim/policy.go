package main

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/examples/fleetsim/presets"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// The jitter kinds of -jitter.
const (
	jitterNone  = "none"  // exactly the ceiling
	jitterFull  = "full"  // uniform over [0, ceiling]
	jitterEqual = "equal" // uniform over [ceiling/2, ceiling]
	jitterAdded = "added" // ceiling + uniform(0, jitter max), then the cap
)

var jitterKinds = []string{jitterNone, jitterFull, jitterEqual, jitterAdded}

// oldPolicy is the incident's policy (see the package doc): the jitter
// added to the uncapped ceiling, then the cap, min(1m, 5s·2^a + U[0, 5s]).
var oldPolicy = retrytest.Policy{
	First: 5 * time.Second, Growth: 2, Cap: time.Minute,
	Jitter: retrytest.AddedJitter, JitterAmount: 5 * time.Second, CapAfterJitter: true,
	Attempts: 200,
}

// fixedPolicy is seed 000's fixed policy, the default of the flags: full
// jitter under the capped ceiling, U[0, min(1h, 5s·2^a)].
var fixedPolicy = retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}

// policyFlags are the flags of the fixed policy.
type policyFlags struct {
	p         retrytest.Policy // -base, -factor, -cap, -attempts
	jitter    string           // -jitter, one of jitterKinds
	jitterMax time.Duration    // -jitter-max, for jitterAdded
}

// policy checks the flags and returns the policy they describe. Added
// jitter is drawn as the incident's code drew it: on the uncapped ceiling,
// capped afterwards.
func (f policyFlags) policy() (retrytest.Policy, error) {
	p := f.p
	switch {
	case p.First <= 0:
		return p, fmt.Errorf("-base %s, want a delay > 0s", schedfmt.Duration(p.First))
	case !(p.Growth >= 1) || p.Growth > 1000:
		return p, fmt.Errorf("-factor %v, want a number from 1 to 1000", p.Growth)
	case p.Cap < 0:
		return p, fmt.Errorf("-cap %s, want a delay >= 0s (0 means no cap)", schedfmt.Duration(p.Cap))
	case p.Attempts < 1 || p.Attempts > policysim.DefaultMaxAttempts:
		return p, fmt.Errorf("-attempts %d, want 1 to %d (the first call counts)", p.Attempts, policysim.DefaultMaxAttempts)
	case f.jitterMax < 0:
		return p, fmt.Errorf("-jitter-max %s, want a delay >= 0s", schedfmt.Duration(f.jitterMax))
	case !slices.Contains(jitterKinds, f.jitter):
		return p, fmt.Errorf("-jitter %q, want one of %q", f.jitter, jitterKinds)
	}
	p.Jitter, p.JitterAmount, p.CapAfterJitter = retrytest.NoJitter, 0, false
	switch f.jitter {
	case jitterFull:
		p.Jitter = retrytest.FullJitter
	case jitterEqual:
		p.Jitter = retrytest.EqualJitter
	case jitterAdded:
		p.Jitter, p.JitterAmount, p.CapAfterJitter = retrytest.AddedJitter, f.jitterMax, true
	}
	return p, p.Validate()
}

// ladder is what the output shows of a policy, a retrytest.Policy or a
// framework's preset: its words, the window of each delay, its cap, and
// how it decides.
type ladder struct {
	about    string               // "5s doubling, full jitter under a 1h cap, 13 attempts (12 retries)"
	windows  []retrytest.Window   // the window of each delay
	cap      time.Duration        // the cap on the ceiling; 0 for none
	added    bool                 // the jitter is added to the ceiling, then capped
	attempts int                  // attempts in all
	decide   retrytest.DecideFunc // the policy itself
	preset   bool                 // a framework's preset: mark where it outlasts the outage
}

func policyLadder(p retrytest.Policy) ladder {
	return ladder{about: p.String(), windows: p.Windows(), cap: p.Cap, added: p.Jitter == retrytest.AddedJitter,
		attempts: p.Attempts, decide: p.Decide}
}

func presetLadder(p presets.Preset) ladder {
	return ladder{about: p.About, windows: p.Windows(), attempts: p.Attempts, decide: p.Decide, preset: true}
}

// table renders the ladder's windows as a schedule table: the window of
// each delay and of each attempt's offset. The first attempt whose delay
// reaches the cap exactly, when there is one, is marked; for a preset,
// the first attempt that can come after an outage that starts with the
// first attempt (outlasts).
func (l ladder) table(outage time.Duration) string {
	rows := []schedfmt.Row{{Attempt: "1", Delay: "0s", At: "0s"}}
	var lo, hi time.Duration
	marked := false
	for i, w := range l.windows {
		lo, hi = addSat(lo, w.Min), addSat(hi, w.Max)
		r := schedfmt.Row{Attempt: strconv.Itoa(i + 2), Delay: span(w.Min, w.Max), At: span(lo, hi)}
		if !marked && l.cap > 0 && w.Max == l.cap {
			marked, r.Marked = true, true
			r.Reason = "the cap is reached"
			if l.added && w.Min == w.Max {
				r.Reason = "jitter swallowed by the cap"
			}
		}
		if !marked && l.preset && i+2 == l.outlasts(outage) {
			marked, r.Marked = true, true // no reason: it would not fit in 80 columns; the output says it
		}
		rows = append(rows, r)
	}
	return schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String()
}

// outlasts returns the first attempt that can come after an outage that
// starts with the first attempt, or 0 if none can (or outage is 0).
func (l ladder) outlasts(outage time.Duration) int {
	var hi time.Duration
	for i, w := range l.windows {
		if hi = addSat(hi, w.Max); outage > 0 && hi >= outage {
			return i + 2
		}
	}
	return 0
}

// span is the ladder's longest run, the sum of its windows' tops.
func (l ladder) span() time.Duration {
	var sum time.Duration
	for _, w := range l.windows {
		sum = addSat(sum, w.Max)
	}
	return sum
}

func addSat(a, b time.Duration) time.Duration {
	if a > 1<<63-1-b {
		return 1<<63 - 1
	}
	return a + b
}

// span formats a window, or a single duration when it is exact.
func span(lo, hi time.Duration) string {
	if lo == hi {
		return schedfmt.Duration(lo)
	}
	return schedfmt.Window(lo, hi)
}
