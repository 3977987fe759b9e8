// Package circuit runs a declared circuit breaker (retrytest.Breaker) as a
// state machine on a timeline of offsets, with no clock: the conformance
// suite predicts a breaker's trip with it, and package policysim gives one
// to each client of a fleet. Params has the fields of retrytest.Breaker,
// in its order, so that one converts to the other.
package circuit

import (
	"math"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
)

// Params are the fields of retrytest.Breaker (see its doc), validated
// there.
type Params struct {
	Threshold      int
	OutOf          int
	FailureRate    float64
	MinCalls       int
	Interval       time.Duration
	OpenFor        time.Duration
	HalfOpensAfter bool
	OpenGrowth     float64
	OpenMax        time.Duration
	Probes         int
	ProbeSuccesses int
	ProbeFailures  int
}

// Phase is where a breaker stands.
type Phase int

// The phases of a breaker.
const (
	Closed Phase = iota
	Open
	HalfOpen
)

// String returns "closed", "open" or "half-open".
func (p Phase) String() string {
	switch p {
	case Closed:
		return "closed"
	case Open:
		return "open"
	}
	return "half-open"
}

// Outcome is what came of a call the breaker let through, as it counts it.
type Outcome int

// The outcomes a breaker counts.
const (
	Success Outcome = iota
	Failure
	// Ignored is neither: the breaker does not count it.
	Ignored
)

// Circuit is one breaker of the kind Params declares. Its methods take the
// instant of the event, which must not go back.
type Circuit struct {
	p     Params
	phase Phase

	// closed: the counts since since
	since       time.Duration
	consecutive int
	window      []bool // the last OutOf outcomes, true a failure (a ring)
	head        int
	filled      int
	calls       int
	fails       int

	// open
	openedAt time.Duration
	openFor  time.Duration

	// half-open
	admitted, succ, failed int
}

// New returns a closed breaker whose counts begin at at.
func New(p Params, at time.Duration) *Circuit {
	c := &Circuit{p: p, openFor: p.OpenFor}
	if p.OutOf > 0 {
		c.window = make([]bool, p.OutOf)
	}
	c.resetCounts(at)
	return c
}

// ProbeSuccesses is how many successful probes close the breaker: the
// declared number, or Probes when it is 0.
func (p Params) probeSuccesses() int {
	if p.ProbeSuccesses > 0 {
		return p.ProbeSuccesses
	}
	return p.Probes
}

func (p Params) probeFailures() int {
	if p.ProbeFailures > 0 {
		return p.ProbeFailures
	}
	return 1
}

func (c *Circuit) resetCounts(at time.Duration) {
	c.since = at
	c.consecutive, c.calls, c.fails = 0, 0, 0
	c.head, c.filled = 0, 0
	clear(c.window)
}

// Phase returns the breaker's phase at at: an open breaker whose open
// duration has ended is half-open, and a closed one whose Interval has
// passed has fresh counts.
func (c *Circuit) Phase(at time.Duration) Phase {
	switch c.phase {
	case Open:
		if at >= c.HalfOpenAt() {
			c.phase = HalfOpen
			c.admitted, c.succ, c.failed = 0, 0, 0
		}
	case Closed:
		if c.p.Interval > 0 && at > satdur.Add(c.since, c.p.Interval) {
			c.resetCounts(at)
		}
	}
	return c.phase
}

// HalfOpenAt is the instant the breaker, open now, lets a probe through:
// the trip plus the open duration, or the first instant after it.
func (c *Circuit) HalfOpenAt() time.Duration {
	h := satdur.Add(c.openedAt, c.openFor)
	if c.p.HalfOpensAfter {
		h = satdur.Add(h, 1)
	}
	return h
}

// OpenedAt is when the breaker last opened.
func (c *Circuit) OpenedAt() time.Duration { return c.openedAt }

// OpenFor is how long the breaker stays open this time: OpenFor, grown by
// every failed probe since it last closed.
func (c *Circuit) OpenFor() time.Duration { return c.openFor }

// Allow reports whether the breaker lets a call through at at: always when
// closed, never when open, and, half-open, while it has let fewer than
// Probes through since it half-opened.
func (c *Circuit) Allow(at time.Duration) bool {
	switch c.Phase(at) {
	case Closed:
		return true
	case HalfOpen:
		if c.admitted < c.p.Probes {
			c.admitted++
			return true
		}
	}
	return false
}

// Record counts the outcome of a call the breaker let through, ending at
// at, and reports whether the breaker opened on it.
func (c *Circuit) Record(at time.Duration, o Outcome) (opened bool) {
	switch c.Phase(at) {
	case Closed:
		return c.recordClosed(at, o)
	case HalfOpen:
		switch o {
		case Failure:
			c.failed++
			if c.failed >= c.p.probeFailures() {
				c.grow()
				c.open(at)
				return true
			}
		case Success:
			c.succ++
			if c.succ >= c.p.probeSuccesses() {
				c.phase = Closed
				c.openFor = c.p.OpenFor
				c.resetCounts(at)
			}
		}
	}
	return false
}

func (c *Circuit) recordClosed(at time.Duration, o Outcome) bool {
	if o == Ignored {
		return false
	}
	failed := o == Failure
	c.calls++
	if failed {
		c.fails++
		c.consecutive++
	} else {
		c.consecutive = 0
	}
	if c.window != nil {
		if c.filled == len(c.window) {
			if c.window[c.head] {
				c.fails--
			}
		} else {
			c.filled++
		}
		c.window[c.head] = failed
		c.head = (c.head + 1) % len(c.window)
	}
	if failed && c.Trips() {
		c.open(at)
		return true
	}
	return false
}

// Trips reports whether the counts, as they stand, open the breaker.
func (c *Circuit) Trips() bool {
	switch {
	case c.p.FailureRate > 0:
		return c.calls >= max(c.p.MinCalls, 1) && float64(c.fails)/float64(c.calls) >= c.p.FailureRate
	case c.window != nil:
		return c.fails >= c.p.Threshold
	}
	return c.consecutive >= c.p.Threshold
}

func (c *Circuit) open(at time.Duration) {
	c.phase = Open
	c.openedAt = at
}

// grow lengthens the next open duration after a failed probe.
func (c *Circuit) grow() {
	g := c.p.OpenGrowth
	if g <= 1 {
		return
	}
	next := float64(c.openFor) * g
	if next >= math.MaxInt64 {
		c.openFor = math.MaxInt64
	} else {
		c.openFor = time.Duration(next)
	}
	if c.p.OpenMax > 0 {
		c.openFor = min(c.openFor, c.p.OpenMax)
	}
}
