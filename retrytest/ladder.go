package retrytest

import (
	"fmt"
	"math"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// LadderOption changes how [Exponential] turns a policy into windows.
type LadderOption interface {
	apply(*ladder)
}

type ladderOption func(*ladder)

func (f ladderOption) apply(l *ladder) { f(l) }

type jitter int

const (
	noJitter jitter = iota
	fullJitter
	equalJitter
	randomized
	additive
	absolute
)

var jitterNames = [...]string{"none", "WithFullJitter", "WithEqualJitter", "WithRandomizationFactor", "WithAdditiveJitter", "WithAbsoluteJitter"}

type ladder struct {
	jitter         jitter
	jitters        int // how many jitter options were given
	rf             float64
	amount         time.Duration // of additive and absolute jitter
	capAfterJitter bool
	firstExponent  int
	tolerance      time.Duration
	exclusiveMax   bool
}

// WithFullJitter draws each delay from [0, c], where c is the ladder's
// ceiling for that delay ("full jitter").
func WithFullJitter() LadderOption {
	return ladderOption(func(l *ladder) { l.setJitter(fullJitter) })
}

// WithEqualJitter draws each delay from [c/2, c] ("equal jitter").
func WithEqualJitter() LadderOption {
	return ladderOption(func(l *ladder) { l.setJitter(equalJitter) })
}

// WithRandomizationFactor draws each delay from [c·(1-f), c·(1+f)], the
// "± randomization factor" of cenkalti/backoff and failsafe-go's
// WithJitterFactor. It panics unless 0 <= f <= 1.
func WithRandomizationFactor(f float64) LadderOption {
	if !(f >= 0 && f <= 1) {
		panic(fmt.Sprintf("retrytest: WithRandomizationFactor: factor %v outside [0, 1]", f))
	}
	return ladderOption(func(l *ladder) { l.setJitter(randomized); l.rf = f })
}

// WithAdditiveJitter draws each delay from [c, c+j]: the ceiling plus up
// to j, as avast/retry-go's default DelayType does (BackOffDelay plus
// RandomDelay of up to MaxJitter). retry-go draws the addend from [0, j)
// and caps the sum with MaxDelay, so its ladder is
//
//	retrytest.Exponential(100*time.Millisecond, 2, maxDelay, attempts,
//		retrytest.WithAdditiveJitter(100*time.Millisecond), retrytest.WithExclusiveMax(), retrytest.WithCapAfterJitter())
//
// It panics if j is negative.
func WithAdditiveJitter(j time.Duration) LadderOption {
	if j < 0 {
		panic("retrytest: WithAdditiveJitter: negative jitter " + schedfmt.Duration(j))
	}
	return ladderOption(func(l *ladder) { l.setJitter(additive); l.amount = j })
}

// WithAbsoluteJitter draws each delay from [c-j, c+j] (never below 0):
// the ceiling plus or minus up to j, a fixed amount rather than a factor,
// as sethvargo/go-retry's WithJitter (which draws from [c-j, c+j), so add
// [WithExclusiveMax]) and failsafe-go's WithJitter do. It panics if j is
// negative.
func WithAbsoluteJitter(j time.Duration) LadderOption {
	if j < 0 {
		panic("retrytest: WithAbsoluteJitter: negative jitter " + schedfmt.Duration(j))
	}
	return ladderOption(func(l *ladder) { l.setJitter(absolute); l.amount = j })
}

// WithCapAfterJitter applies the cap to the jittered window instead of to
// the ceiling before jitter. By default the cap comes first, so with
// WithRandomizationFactor, WithAdditiveJitter or WithAbsoluteJitter a delay
// may exceed the cap (cenkalti/backoff, failsafe-go, gRPC); with this
// option no delay does (avast/retry-go's MaxDelay, sethvargo/go-retry with
// WithCappedDuration outermost).
func WithCapAfterJitter() LadderOption {
	return ladderOption(func(l *ladder) { l.capAfterJitter = true })
}

// WithFirstExponent sets the exponent of the first delay: 0 (the default)
// makes the first retry wait base, 1 makes it wait base·factor, as
// avast/retry-go's FullJitterBackoffDelay and the AWS SDK's legacy jitter
// do. It panics if e is negative.
func WithFirstExponent(e int) LadderOption {
	if e < 0 {
		panic(fmt.Sprintf("retrytest: WithFirstExponent: negative exponent %d", e))
	}
	return ladderOption(func(l *ladder) { l.firstExponent = e })
}

// WithTolerance widens every window by d at both ends (never below 0).
// Real libraries are off by a nanosecond here and there: cenkalti/backoff
// draws from [a, b+1ns), sethvargo/go-retry truncates floats, so
// WithTolerance(time.Nanosecond) is the usual value. It panics if d is
// negative.
func WithTolerance(d time.Duration) LadderOption {
	if d < 0 {
		panic("retrytest: WithTolerance: negative tolerance " + schedfmt.Duration(d))
	}
	return ladderOption(func(l *ladder) { l.tolerance = d })
}

// WithExclusiveMax makes each jittered window half-open, [lo, hi), by
// lowering Max by a nanosecond: for code that draws
// floor(rand() * ceiling) with rand() in [0, 1). It leaves windows without
// jitter ([c, c]) alone, and applies before [WithCapAfterJitter], which
// the capped sum of a half-open draw can still reach.
func WithExclusiveMax() LadderOption {
	return ladderOption(func(l *ladder) { l.exclusiveMax = true })
}

func (l *ladder) setJitter(j jitter) {
	if l.jitters > 0 && l.jitter != j {
		panic(fmt.Sprintf("retrytest: Exponential: both %s and %s given, want one jitter option", jitterNames[l.jitter], jitterNames[j]))
	}
	l.jitter = j
	l.jitters++
}

// Exponential returns the windows a retry loop's delays must fall in when it
// makes attempts attempts with exponential backoff: one window per delay,
// so attempts-1 windows, window i for the delay before attempt i+2. Pass
// them to [CheckDelaysWithin] or matchers.HaveDelaysWithin.
//
// The ceiling of delay k (from 0) is base·factor^(k+e), e being the first
// exponent (0 unless [WithFirstExponent]), multiplied one step at a time
// and truncated to the nanosecond as libraries do, saturating instead of
// overflowing. A maxDelay of 0 means no cap. Without a jitter option each
// window is exact, [c, c]; [WithFullJitter], [WithEqualJitter],
// [WithRandomizationFactor], [WithAdditiveJitter] and [WithAbsoluteJitter]
// widen it. The cap applies to the ceiling before
// jitter unless [WithCapAfterJitter] is given. [WithExclusiveMax] makes
// the jittered draw half-open before a cap after jitter clamps it, so a
// capped delay can still equal the cap; [WithTolerance] widens the ends
// last.
//
// The 500ms ladder doubling to an 8s cap, over seven attempts:
//
//	retrytest.Exponential(500*time.Millisecond, 2, 8*time.Second, 7)
//	// [500ms, 500ms] [1s, 1s] [2s, 2s] [4s, 4s] [8s, 8s] [8s, 8s]
//
// Exponential panics on a negative base, maxDelay or attempts, on a factor
// that is not a positive number, and on two different jitter options.
func Exponential(base time.Duration, factor float64, maxDelay time.Duration, attempts int, opts ...LadderOption) []Window {
	switch {
	case base < 0:
		panic("retrytest: Exponential: negative base " + schedfmt.Duration(base))
	case !(factor > 0) || math.IsInf(factor, 0):
		panic(fmt.Sprintf("retrytest: Exponential: factor %v, want a number > 0", factor))
	case maxDelay < 0:
		panic("retrytest: Exponential: negative cap " + schedfmt.Duration(maxDelay) + " (0 means no cap)")
	case attempts < 0:
		panic(fmt.Sprintf("retrytest: Exponential: negative attempts %d", attempts))
	}
	var l ladder
	for _, o := range opts {
		o.apply(&l)
	}
	if attempts < 2 {
		return nil
	}
	ws := make([]Window, attempts-1)
	c := base
	for range l.firstExponent {
		c = mulSat(c, factor)
	}
	for k := range ws {
		if k > 0 {
			c = mulSat(c, factor)
		}
		ceiling := c
		if maxDelay > 0 && !l.capAfterJitter {
			ceiling = min(ceiling, maxDelay)
		}
		var w Window
		switch l.jitter {
		case noJitter:
			w = Window{Min: ceiling, Max: ceiling}
		case fullJitter:
			w = Window{Min: 0, Max: ceiling}
		case equalJitter:
			w = Window{Min: ceiling / 2, Max: ceiling}
		case randomized:
			x := float64(ceiling)
			w = Window{Min: toDuration(math.Floor(x - l.rf*x)), Max: toDuration(math.Ceil(x + l.rf*x))}
		case additive:
			w = Window{Min: ceiling, Max: satdur.Add(ceiling, l.amount)}
		case absolute:
			w = Window{Min: max(0, ceiling-l.amount), Max: satdur.Add(ceiling, l.amount)}
		}
		if l.exclusiveMax && w.Max > w.Min {
			w.Max--
		}
		if maxDelay > 0 && l.capAfterJitter {
			w = Window{Min: min(w.Min, maxDelay), Max: min(w.Max, maxDelay)}
		}
		if l.tolerance > 0 {
			w.Min = max(0, w.Min-l.tolerance)
			w.Max = satdur.Add(w.Max, l.tolerance)
		}
		ws[k] = w
	}
	return ws
}

func mulSat(d time.Duration, f float64) time.Duration { return toDuration(float64(d) * f) }

// toDuration truncates x to a Duration, saturating at the largest one.
func toDuration(x float64) time.Duration {
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}
