package retrytest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Policy is a declared exponential backoff: what a retry loop claims to
// do. It is the one policy type of retrykit. [Policy.Windows] builds the
// ladder of windows the checks hold a schedule to, [Policy.Decide] draws
// delays as the loop would, so that package policysim can run a fleet of
// such loops, and the conformance suite checks code against it.
//
// The ceiling of retry k (1 for the first retry) is
// First·Growth^(k-1+FirstExponent), or Ceilings[k-1] for a policy whose
// ceilings do not grow geometrically, capped at Cap; each delay is drawn
// around its ceiling as Jitter says, then raised to Floor. The zero values
// mean what users expect: Growth 0 is doubling, Cap 0 no cap, Jitter 0
// none, Floor 0 none, Attempts 0 no limit.
//
// The 500ms ladder doubling to an 8s cap, seven attempts, full jitter:
//
//	p := retrytest.Policy{First: 500 * time.Millisecond, Cap: 8 * time.Second, Jitter: retrytest.FullJitter, Attempts: 7}
//	retrytest.AssertDelaysWithin(t, rec, p.Windows()...) // [0s, 500ms] [0s, 1s] … [0s, 8s]
type Policy struct {
	// First is the ceiling of the first retry's delay, before jitter.
	First time.Duration
	// Ceilings, when set, are the ceilings of retries 1, 2, … in order,
	// the last repeating, for a policy whose ceilings do not grow by a
	// factor: (2^k − 1)·d, d + d·k², k⁴ seconds. First, Growth and
	// FirstExponent are then 0. A table rather than a function, so that a
	// Policy prints in full (%v), reads the same in every failure, and is
	// built in a line from any formula:
	//
	//	for k := 1; k <= 24; k++ { p.Ceilings = append(p.Ceilings, time.Duration(k*k*k*k)*time.Second) }
	Ceilings []time.Duration
	// Growth multiplies the ceiling from one retry to the next: 0 means
	// 2 (doubling), 1 a constant delay.
	Growth float64
	// Cap bounds the ceiling; 0 means no cap.
	Cap time.Duration
	// Jitter says how a delay is drawn around its ceiling.
	Jitter Jitter
	// JitterFactor is the f of FactorJitter and DownJitter, from 0 to 1.
	JitterFactor float64
	// JitterAmount is the j of AddedJitter, PlusMinusJitter and
	// StepJitter.
	JitterAmount time.Duration
	// JitterScale is the [a, b] of ScaleJitter: the delay is drawn from
	// [a·c, b·c], 0 <= a <= b.
	JitterScale [2]float64
	// Floor raises every drawn delay to at least Floor, after the jitter
	// and the cap: max(Floor, delay), as stripe-go floors at 500ms and
	// resty at its minimum wait. 0 means none.
	Floor time.Duration
	// CapAfterJitter caps the jittered delay instead of the ceiling, so
	// that no delay exceeds Cap (avast/retry-go's MaxDelay). By default the
	// cap comes first, and FactorJitter, AddedJitter or PlusMinusJitter may
	// exceed it (cenkalti/backoff, failsafe-go, gRPC).
	CapAfterJitter bool
	// FirstExponent is the exponent of the first retry: 0 waits First, 1
	// waits First·Growth (avast/retry-go's full jitter, AWS's legacy one).
	FirstExponent int
	// OpenTop says the draw never reaches the top of its window, [lo, hi),
	// as code drawing rand.Int64N(n) or floor(rand·c) does.
	OpenTop bool
	// Attempts is how many attempts the loop makes in all, the first call
	// included (5 attempts are 4 retries); 0 means no limit.
	Attempts int
	// Tolerance widens every window by that much at both ends: libraries
	// are off by a nanosecond here and there (cenkalti/backoff draws from
	// [a, b+1ns)).
	Tolerance time.Duration
}

// Jitter is how a delay is drawn around its ceiling c.
type Jitter int

// The jitters of [Policy]. A draw r from [0, 1) picks the delay in the
// window; the Min source (r = 0) gives its bottom, but for DownJitter,
// whose r = 0 gives the ceiling itself.
const (
	NoJitter        Jitter = iota // exactly c
	FullJitter                    // from [0, c]
	EqualJitter                   // from [c/2, c]
	FactorJitter                  // from [c·(1-f), c·(1+f)], f = JitterFactor
	AddedJitter                   // from [c, c+j], j = JitterAmount
	PlusMinusJitter               // from [c-j, c+j], never below 0
	DownJitter                    // c·(1-f·r), from (c·(1-f), c]: drawn down from c (openai-go, stripe-go)
	ScaleJitter                   // c·(a+(b-a)·r), from [a·c, b·c], [a, b] = JitterScale (azcore: [0.8c, 1.3c))
	StepJitter                    // c + k·j·r for retry k, from [c, c+k·j] (asynq, Sidekiq: rand·(count+1))
)

var jitterNames = [...]string{"no", "full", "equal", "factor", "added", "plus-minus", "down", "scale", "step"}

// String returns "no", "full", "equal", "factor", "added", "plus-minus",
// "down", "scale" or "step".
func (j Jitter) String() string {
	if j >= 0 && int(j) < len(jitterNames) {
		return jitterNames[j]
	}
	return "Jitter(" + strconv.Itoa(int(j)) + ")"
}

// Decision is what a pure retry policy decides after a failed attempt:
// whether to try again, after which delay, and why.
type Decision struct {
	// Retry reports whether another attempt follows.
	Retry bool
	// Delay is the wait before that attempt; ignored when Retry is false.
	Delay time.Duration
	// Reason says why, in the policy's own words: "backoff",
	// "retry-after", "permanent", "exhausted".
	Reason string
}

// String describes the decision as a table cell does: "retry: backoff",
// "stop: permanent", or the bare verb without a reason.
func (d Decision) String() string {
	verb := "stop"
	if d.Retry {
		verb = "retry"
	}
	if d.Reason == "" {
		return verb
	}
	return verb + ": " + d.Reason
}

// Validate reports a policy that contradicts itself, naming the field and
// what it expects.
func (p Policy) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if p.First < 0 {
		bad("First %s, want a delay >= 0s", schedfmt.Duration(p.First))
	}
	if p.Growth < 0 || math.IsNaN(p.Growth) || math.IsInf(p.Growth, 0) {
		bad("Growth %v, want a number > 0 (0 means 2)", p.Growth)
	}
	if p.Cap < 0 {
		bad("Cap %s, want a delay >= 0s (0 means no cap)", schedfmt.Duration(p.Cap))
	}
	if p.Jitter < NoJitter || p.Jitter > StepJitter {
		bad("Jitter %v, want one of the Jitter constants", p.Jitter)
	}
	if !(p.JitterFactor >= 0 && p.JitterFactor <= 1) {
		bad("JitterFactor %v, want a factor from 0 to 1", p.JitterFactor)
	}
	if p.JitterFactor != 0 && p.Jitter != FactorJitter && p.Jitter != DownJitter {
		bad("JitterFactor %v with %v jitter, want FactorJitter or DownJitter", p.JitterFactor, p.Jitter)
	}
	if p.JitterAmount < 0 {
		bad("JitterAmount %s, want a delay >= 0s", schedfmt.Duration(p.JitterAmount))
	}
	if p.JitterAmount != 0 && p.Jitter != AddedJitter && p.Jitter != PlusMinusJitter && p.Jitter != StepJitter {
		bad("JitterAmount %s with %v jitter, want AddedJitter, PlusMinusJitter or StepJitter", schedfmt.Duration(p.JitterAmount), p.Jitter)
	}
	if a, b := p.JitterScale[0], p.JitterScale[1]; p.Jitter == ScaleJitter && !(a >= 0 && b >= a && !math.IsInf(b, 0)) {
		bad("JitterScale %v, want [a, b] with 0 <= a <= b", p.JitterScale)
	}
	if p.JitterScale != [2]float64{} && p.Jitter != ScaleJitter {
		bad("JitterScale %v with %v jitter, want ScaleJitter", p.JitterScale, p.Jitter)
	}
	if p.Floor < 0 {
		bad("Floor %s, want a delay >= 0s (0 means none)", schedfmt.Duration(p.Floor))
	}
	if len(p.Ceilings) > 0 && (p.First != 0 || p.Growth != 0 || p.FirstExponent != 0) {
		bad("Ceilings with First %s, Growth %v, FirstExponent %d: Ceilings replace them, want them 0", schedfmt.Duration(p.First), p.Growth, p.FirstExponent)
	}
	for i, c := range p.Ceilings {
		if c < 0 {
			bad("Ceilings[%d] %s, want a delay >= 0s", i, schedfmt.Duration(c))
		}
	}
	if p.FirstExponent < 0 {
		bad("FirstExponent %d, want 0 or more", p.FirstExponent)
	}
	if p.Attempts < 0 {
		bad("Attempts %d, want 1 or more (0 means no limit)", p.Attempts)
	}
	if p.Tolerance < 0 {
		bad("Tolerance %s, want a delay >= 0s", schedfmt.Duration(p.Tolerance))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("retrytest: Policy: %w", err)
	}
	return nil
}

func (p Policy) mustValidate(method string) {
	if err := p.Validate(); err != nil {
		panic(err.Error() + " (in Policy." + method + ")")
	}
}

func (p Policy) growth() float64 {
	if p.Growth == 0 {
		return 2
	}
	return p.Growth
}

// Ceiling returns the ceiling of retry k (1 for the first retry), before
// jitter: First·Growth^(k-1+FirstExponent), multiplied one step at a time
// and truncated to the nanosecond as libraries do, saturating instead of
// overflowing — or Ceilings[k-1], the last repeating — capped unless
// CapAfterJitter. It panics on an invalid
// policy or a k below 1.
func (p Policy) Ceiling(k int) time.Duration {
	p.mustValidate("Ceiling")
	if k < 1 {
		panic(fmt.Sprintf("retrytest: Policy.Ceiling(%d): retries count from 1", k))
	}
	if n := len(p.Ceilings); n > 0 {
		c := p.Ceilings[min(k, n)-1]
		if p.Cap > 0 && !p.CapAfterJitter {
			c = min(c, p.Cap)
		}
		return c
	}
	c, g := p.First, p.growth()
	for range k - 1 + p.FirstExponent {
		c = mulSat(c, g)
		if p.Cap > 0 && !p.CapAfterJitter && c >= p.Cap {
			break // capped from here on: stop multiplying
		}
	}
	if p.Cap > 0 && !p.CapAfterJitter {
		c = min(c, p.Cap)
	}
	return c
}

// Window returns the window the delay before retry k must fall in (k 1 for
// the first retry, the wait before attempt k+1). It panics on an invalid
// policy or a k below 1.
func (p Policy) Window(k int) Window {
	w := p.jitterWindow(p.Ceiling(k), k)
	w.Open = p.OpenTop && w.Max > w.Min && p.Jitter != DownJitter
	if p.Cap > 0 && p.CapAfterJitter && w.Max > p.Cap {
		// A capped draw can equal the cap, open top or not.
		w = Window{Min: min(w.Min, p.Cap), Max: p.Cap}
	}
	if p.Floor > 0 && w.Min < p.Floor {
		// A floored draw can equal the floor.
		w.Min = p.Floor
		if w.Max <= p.Floor {
			w = Window{Min: p.Floor, Max: p.Floor}
		}
	}
	if p.Tolerance > 0 {
		w.Min = max(0, w.Min-p.Tolerance)
		w.Max = satdur.Add(w.Max, p.Tolerance)
	}
	return w
}

// jitterWindow is the window the jitter draws retry k's delay from around
// its ceiling c, before the cap after the jitter, the floor and the
// tolerance.
func (p Policy) jitterWindow(c time.Duration, k int) Window {
	x := float64(c)
	switch p.Jitter {
	case FullJitter:
		return Window{Min: 0, Max: c}
	case EqualJitter:
		return Window{Min: c / 2, Max: c}
	case FactorJitter:
		return Window{Min: toDuration(math.Floor(x - p.JitterFactor*x)), Max: toDuration(math.Ceil(x + p.JitterFactor*x))}
	case AddedJitter:
		return Window{Min: c, Max: satdur.Add(c, p.JitterAmount)}
	case PlusMinusJitter:
		return Window{Min: max(0, c-p.JitterAmount), Max: satdur.Add(c, p.JitterAmount)}
	case DownJitter:
		// c - ⌊f·c⌋ is out of reach (r < 1), a nanosecond the window
		// keeps: windows are closed at the bottom.
		return Window{Min: c - toDuration(p.JitterFactor*x), Max: c}
	case ScaleJitter:
		return Window{Min: toDuration(math.Floor(p.JitterScale[0] * x)), Max: toDuration(math.Ceil(p.JitterScale[1] * x))}
	case StepJitter:
		return Window{Min: c, Max: satdur.Add(c, mulSat(p.JitterAmount, float64(k)))}
	}
	return Window{Min: c, Max: c}
}

// Windows returns the window of every delay of the loop: Attempts-1
// windows, window i for the delay before attempt i+2. Pass them to
// [CheckDelaysWithin] or matchers.HaveDelaysWithin. A policy with no
// attempt limit has no last window: Windows panics then, as it does on an
// invalid policy; use [Policy.Window].
func (p Policy) Windows() []Window {
	p.mustValidate("Windows")
	if p.Attempts == 0 {
		panic("retrytest: Policy.Windows: Attempts is 0 (no limit), so the ladder has no end; set Attempts, or ask Policy.Window(k) for retry k")
	}
	ws := make([]Window, p.Attempts-1)
	for i := range ws {
		ws[i] = p.Window(i + 1)
	}
	return ws
}

// Decide is the policy as a [DecideFunc]: after the attempt numbered
// failed has failed (0 for the first call), whatever its outcome, it
// retries after a delay drawn from rng the way the declared loop draws it
// — the jitter around the ceiling, then the cap when CapAfterJitter, so
// that a capped draw lands on the cap as often as the real loop's does —
// or gives up with reason "exhausted" after the last attempt. A Policy
// declares a backoff, not which failures retry: o is not read. Its method
// value fits policysim's Fleet.Decide. It panics on an invalid policy.
func (p Policy) Decide(failed int, _ Outcome, rng *rand.Rand) Decision {
	p.mustValidate("Decide")
	if failed < 0 || p.Attempts > 0 && failed >= p.Attempts-1 {
		return Decision{Reason: "exhausted"}
	}
	c := p.Ceiling(failed + 1)
	var d time.Duration
	switch p.Jitter {
	case NoJitter:
		d = c
	case FullJitter:
		d = p.draw(rng, 0, c)
	case EqualJitter:
		d = p.draw(rng, c/2, c)
	case FactorJitter, ScaleJitter:
		w := p.jitterWindow(c, failed+1)
		d = p.draw(rng, w.Min, w.Max)
	case AddedJitter:
		d = satdur.Add(c, p.draw(rng, 0, p.JitterAmount))
	case PlusMinusJitter:
		d = max(0, p.draw(rng, c-p.JitterAmount, satdur.Add(c, p.JitterAmount)))
	case DownJitter:
		if span := uint64(toDuration(p.JitterFactor * float64(c))); span > 0 {
			d = c - time.Duration(rng.Uint64N(span)) // r < 1: never c·(1-f)
		} else {
			d = c
		}
	case StepJitter:
		d = satdur.Add(c, p.draw(rng, 0, mulSat(p.JitterAmount, float64(failed+1))))
	}
	if p.Cap > 0 && p.CapAfterJitter {
		d = min(d, p.Cap)
	}
	d = max(d, p.Floor)
	return Decision{Retry: true, Delay: d, Reason: "backoff"}
}

// draw returns a delay drawn uniformly from [lo, hi], or [lo, hi) with
// OpenTop.
func (p Policy) draw(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	span := uint64(hi - lo)
	if !p.OpenTop && span < math.MaxUint64 {
		span++
	}
	return lo + time.Duration(rng.Uint64N(span))
}

// String describes the policy in a few words: "5s doubling, full jitter
// under a 1h cap, 13 attempts (12 retries)".
func (p Policy) String() string {
	growth := "x" + strconv.FormatFloat(p.growth(), 'g', -1, 64)
	switch p.growth() {
	case 1:
		growth = "constant"
	case 2:
		growth = "doubling"
	}
	if p.FirstExponent > 0 {
		growth += " from exponent " + strconv.Itoa(p.FirstExponent)
	}
	var jitter string
	switch p.Jitter {
	case NoJitter:
		jitter = "no jitter"
	case FactorJitter:
		jitter = "jitter ±" + strconv.FormatFloat(p.JitterFactor*100, 'g', -1, 64) + "%"
	case AddedJitter:
		jitter = "jitter " + schedfmt.Window(0, p.JitterAmount) + " added"
	case PlusMinusJitter:
		jitter = "jitter ±" + schedfmt.Duration(p.JitterAmount)
	case DownJitter:
		jitter = "jitter down to -" + strconv.FormatFloat(p.JitterFactor*100, 'g', -1, 64) + "%"
	case ScaleJitter:
		jitter = "jitter ×[" + strconv.FormatFloat(p.JitterScale[0], 'g', -1, 64) + ", " + strconv.FormatFloat(p.JitterScale[1], 'g', -1, 64) + "]"
	case StepJitter:
		jitter = "jitter [0s, k·" + schedfmt.Duration(p.JitterAmount) + "] added at retry k"
	default:
		jitter = p.Jitter.String() + " jitter"
	}
	var shape string
	switch {
	case p.Cap == 0:
		shape = jitter + ", no cap"
	case p.Jitter == NoJitter:
		shape = "no jitter, capped at " + schedfmt.Duration(p.Cap)
	case p.CapAfterJitter:
		shape = jitter + " before a " + schedfmt.Duration(p.Cap) + " cap"
	default:
		shape = jitter + " under a " + schedfmt.Duration(p.Cap) + " cap"
	}
	if p.OpenTop && p.Jitter != NoJitter && p.Jitter != DownJitter {
		shape += ", top excluded"
	}
	if p.Floor > 0 {
		shape += ", at least " + schedfmt.Duration(p.Floor)
	}
	count := "no attempt limit"
	switch {
	case p.Attempts < 0:
		count = fmt.Sprintf("Attempts %d (invalid: want 1 or more, 0 for no limit)", p.Attempts)
	case p.Attempts == 1:
		count = "1 attempt (no retry)"
	case p.Attempts == 2:
		count = "2 attempts (1 retry)"
	case p.Attempts > 2:
		count = fmt.Sprintf("%d attempts (%d retries)", p.Attempts, p.Attempts-1)
	}
	start := schedfmt.Duration(p.First) + " " + growth
	if len(p.Ceilings) > 0 {
		start = "ceilings " + ceilingsText(p.Ceilings)
	}
	return fmt.Sprintf("%s, %s, %s", start, shape, count)
}

// ceilingsText lists a table of ceilings, its middle elided past six:
// "1s, 16s, 1m21s, …, 92h9m36s (24, the last repeating)".
func ceilingsText(cs []time.Duration) string {
	var parts []string
	for i, c := range cs {
		if len(cs) > 6 && i == 3 {
			parts = append(parts, "…")
		}
		if len(cs) <= 6 || i < 3 || i == len(cs)-1 {
			parts = append(parts, schedfmt.Duration(c))
		}
	}
	return strings.Join(parts, ", ") + fmt.Sprintf(" (%d, the last repeating)", len(cs))
}

func mulSat(d time.Duration, f float64) time.Duration { return toDuration(float64(d) * f) }

// toDuration truncates x to a Duration, saturating at the largest one.
func toDuration(x float64) time.Duration {
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}
