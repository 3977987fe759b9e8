package conformance

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// The one judge of a first retry: what the code did after an attempt that
// ended with some cause, held to what the rule wants of that cause.

// seen is what the suite saw of a call after its first attempt.
type seen struct {
	retried  bool          // a second attempt began
	returned bool          // the call returned
	got      time.Duration // the wait before the second attempt
}

// question is one question to the judge: what the rule wants after a cause,
// and what else it would accept.
type question struct {
	want Want
	// alt, when set, is a second answer the code may give instead: for a
	// hint RFC 9110's grammar forbids that a lenient reader may still read
	// right, the fallback's wait or the hint's.
	alt *Want
	// why says why Final holds, for the failure: "it is a Permanent
	// status", "the hint is above the 5m ceiling".
	why string
	// cutBy is the Spec's Budget when the wanted wait ends past it: the
	// call must end at the Budget instead of retrying.
	cutBy time.Duration
}

// judge says what is wrong with s, the code's answer to a cause, or "".
// b is the code's own wait after the transient failure: a want that is
// the ladder's first is the backoff's wait, which the code must make as it
// makes it after the transient failure, so that a backoff bug fails
// WaitsInWindows alone.
func (c *config) judge(s seen, a question, b base) string {
	why := c.judgeOne(s, a.want, a.why, a.cutBy, b)
	if why == "" || a.alt == nil {
		return why
	}
	if c.judgeOne(s, *a.alt, a.why, 0, b) == "" {
		return ""
	}
	if !s.retried {
		return why
	}
	return fmt.Sprintf("waited %s, want %s, or %s: a value RFC 9110 forbids must fall back as an unreadable hint does, or be read right",
		schedfmt.Duration(s.got), c.describe(*a.alt, b), c.describe(a.want, b))
}

// judgeOne judges s against one want.
func (c *config) judgeOne(s seen, w Want, why string, cutBy time.Duration, b base) string {
	switch {
	case w.Final && s.retried:
		return fmt.Sprintf("retried after %s, want no retry: %s", schedfmt.Duration(s.got), why)
	case w.Final && !s.returned:
		return "still waiting, with no retry, when the suite stopped; want the call to end at once: " + why
	case w.Final:
		return ""
	case cutBy > 0 && s.retried:
		return fmt.Sprintf("retried after %s, want the call to end at its %s Budget: the %s wait ends past it", schedfmt.Duration(s.got), schedfmt.Duration(cutBy), schedfmt.Duration(w.Window.Min))
	case cutBy > 0:
		return ""
	case w.Window.Min > c.horizon() && s.retried && s.got < w.Window.Min:
		return fmt.Sprintf("retried after %s, want a wait of %s: a wait this short has wrapped", schedfmt.Duration(s.got), longWait(w.Window.Min))
	case w.Window.Min > c.horizon():
		return "" // still waiting at the suite's horizon, as it must be
	case !s.retried && !s.returned:
		return "still waiting, with no retry, when the suite stopped; want a retry"
	case !s.retried:
		return "gave up (returned without a retry), want a retry"
	}
	if c.isLadderFirst(w) && b.ownKnown {
		// The code draws its own jitter: its wait here is one draw, judged
		// against the declared window and against the range of its own
		// waits after the transient failure, widened by the window's span.
		span := w.Window.Max - w.Window.Min
		own := retrytest.Window{Min: max(0, b.own.Min-span), Max: satdur.Add(b.own.Max, span)}
		switch {
		case s.got == 0 && b.own.Min > 0 && w.Window.Min > 0:
			return fmt.Sprintf("retried at once, want the backoff's wait (%s; in %s after %s without a hint, over %d calls): a failure that gives no usable hint falls back to the backoff, never to zero", w.Window, b.own, c.transientName(), ownSample+1)
		case !w.Window.Contains(s.got) && !own.Contains(s.got):
			return fmt.Sprintf("retried after %s, want the backoff's wait: %s, or the code's own waits after %s without a hint, %s over %d calls (the code draws its own jitter: these figures differ from run to run)", schedfmt.Duration(s.got), w.Window, c.transientName(), b.own, ownSample+1)
		}
		return ""
	}
	if c.isLadderFirst(w) {
		switch {
		case s.got == 0 && (!b.ok || b.wait > 0) && w.Window.Max > 0:
			return fmt.Sprintf("retried at once, want the backoff's wait (%s): a failure that gives no usable hint falls back to the backoff, never to zero", c.backoffWant(b, w.Window))
		case b.exact && s.got != b.wait:
			return fmt.Sprintf("retried after %s, want %s, the backoff's wait as after %s (twice)", schedfmt.Duration(s.got), schedfmt.Duration(b.wait), c.transientName())
		case b.ok && s.got != b.wait && !w.Window.Contains(s.got):
			return fmt.Sprintf("retried after %s, want %s, the backoff's wait as after %s", schedfmt.Duration(s.got), schedfmt.Duration(b.wait), c.transientName())
		case !b.ok && !w.Window.Contains(s.got):
			return fmt.Sprintf("retried after %s, want within %s", schedfmt.Duration(s.got), w.Window)
		}
		return ""
	}
	if !w.Window.Contains(s.got) {
		return fmt.Sprintf("retried after %s, want %s%s", schedfmt.Duration(s.got), c.describe(w, b), c.byRule())
	}
	if w.Draw.spread() && !c.spec.OwnRandom && w.Window.Max > w.Window.Min {
		// The suite asks at the Max source: a wait drawn from it evenly
		// over the window is at its top (its bottom, drawn downward).
		edge, what := w.Window.Max, "top"
		if w.Draw == DrawDownward {
			edge, what = w.Window.Min, "bottom"
		}
		if s.got < edge-c.edgeSlack() || s.got > edge+c.edgeSlack() {
			return fmt.Sprintf("retried after %s, want %s, the %s of %s at the Max source (drawn %s from Seams.Rand)%s", schedfmt.Duration(s.got), schedfmt.Duration(edge), what, w.Window, w.Draw, c.byRule())
		}
	}
	return ""
}

// isLadderFirst reports whether w is what the rule wants after the
// transient failure, before the first retry: the backoff's wait.
func (c *config) isLadderFirst(w Want) bool {
	l := c.ladder(1)
	return !w.Final && w.Window == l.Window && w.Draw == l.Draw
}

// describe says what w wants, for a failure: "the backoff's wait (…)",
// "7s", "[1s, 2s)".
func (c *config) describe(w Want, b base) string {
	switch {
	case w.Final:
		return "no retry"
	case c.isLadderFirst(w):
		return "the backoff's wait (" + c.backoffWant(b, w.Window) + ")"
	case w.Window.Min > c.horizon():
		return "a wait of " + longWait(w.Window.Min)
	case w.Window.Min == w.Window.Max:
		return schedfmt.Duration(w.Window.Min)
	}
	return w.Window.String()
}

// byRule names the Spec's Rule after a want it gave, when the Spec has
// one: the window was the user's, not the named fields'.
func (c *config) byRule() string {
	if c.spec.Rule == nil {
		return ""
	}
	return ", by the Rule (" + c.spec.Rule.String() + ")"
}

func (c *config) backoffWant(b base, w retrytest.Window) string {
	if b.ok {
		return fmt.Sprintf("%s, as after %s without a hint", schedfmt.Duration(b.wait), c.transientName())
	}
	return fmt.Sprintf("%s at the top of the source", w)
}

// longWait says a wait too long to wait out: "about 292 years".
func longWait(d time.Duration) string {
	if d >= time.Duration(1<<62) {
		return "about 292 years (with no ceiling the hint asks for that)"
	}
	return schedfmt.Duration(d)
}

// cutByBudget is the Spec's Budget when a wait of w after an attempt at
// at ends past it, else 0.
func (c *config) cutByBudget(w Want, at time.Duration) time.Duration {
	if b := c.spec.Budget; b > 0 && !w.Final && w.Window.Min <= c.horizon() && satdur.Add(at, w.Window.Min) >= b {
		return b
	}
	return 0
}

// seenOf is what a call shows after its first attempt.
func seenOf(cl *call) seen {
	at := cl.attempts()
	s := seen{retried: len(at) >= 2, returned: cl.rc.Returned()}
	if s.retried {
		s.got = at[1] - at[0]
	}
	return s
}

// seenOfDecision is what a pure policy's decision shows.
func seenOfDecision(d retrytest.Decision) seen {
	return seen{retried: d.Retry, returned: true, got: d.Delay}
}

// finalAtOnce says what is wrong with cl, a call whose first attempt must
// end it at once (a Final want: a Permanent status, an error the code does
// not retry), or "": one attempt, and the call returned when it ended.
func finalAtOnce(cl *call, why string) string {
	at := cl.attempts()
	switch {
	case len(at) != 1:
		return fmt.Sprintf("%s, want 1: %s\n%s", schedfmt.Count(len(at), "attempt"), why, cl.table())
	case !cl.rc.Returned() || cl.rc.At() != at[0]:
		return fmt.Sprintf("%s, want returned at %s, when the attempt ended: %s, so the call ends without a wait\n%s", cl.rc, schedfmt.Duration(at[0]), why, cl.table())
	}
	return ""
}
