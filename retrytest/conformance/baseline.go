package conformance

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// baseline is a call made alone at the Max source, every attempt failing
// transiently: the code's own waits, which the properties that are not
// about the backoff compare against, so that a bug in the backoff fails
// WaitsInWindows and not every property that waits.
func (c *config) baseline(t tb) *call {
	t.Helper()
	return c.alwaysFailing(t, seqrand.Max())
}

// base is the code's own wait after one transient failure at the Max
// source, which the properties of statuses, errors and hints compare with:
// ok says it retried at all, exact that two calls waited alike, so that a
// wait of the backoff must be that wait to the nanosecond, not only within
// the window (code with a random source of its own waits differently each
// time).
type base struct {
	wait      time.Duration
	ok, exact bool
	// own, with OwnRandom, is the range of the code's own first waits
	// after the transient failure, over ownSample calls: a wait of the
	// backoff is judged against it as well as the declared window, so that
	// a wait the declared window does not hold, but the code's own
	// backoff does, is WaitsInWindows's finding alone.
	own      retrytest.Window
	ownKnown bool
}

// ownSample is how many first waits make the range of base.own.
const ownSample = 200

// firstWait is the code's base.
func (c *config) firstWait(t tb) base {
	t.Helper()
	once := func() (time.Duration, bool) {
		if c.shape == "policy" {
			d := c.decideAt(t, 0, c.transientOutcome(), seqrand.Max())
			return d.Delay, d.Retry
		}
		cl := c.run(t, seqrand.Max(), []answer{transient, success})
		if at := cl.attempts(); len(at) >= 2 {
			return at[1] - at[0], true
		}
		return 0, false
	}
	d, ok := once()
	again, _ := once()
	b := base{wait: d, ok: ok, exact: ok && !c.spec.OwnRandom && again == d}
	if c.spec.OwnRandom && ok {
		c.ownOnce.Do(func() {
			lo, hi := d, d
			for range ownSample {
				if w, ok := once(); ok {
					lo, hi = min(lo, w), max(hi, w)
				}
			}
			c.ownRange = retrytest.Window{Min: lo, Max: hi}
		})
		b.own, b.ownKnown = c.ownRange, true
	}
	return b
}

// midFirstWait is the middle of the code's first wait at the Max source,
// from the call's start, and its length; 0 when it made none.
func (c *config) midFirstWait(t tb) (mid, wait time.Duration) {
	t.Helper()
	cl := c.run(t, seqrand.Max(), []answer{transient, success})
	at := cl.attempts()
	if len(at) < 2 {
		return 0, 0
	}
	wait = at[1] - at[0]
	return at[0] + wait/2, wait
}

// skipUnreturned skips the property when cl, a call that always fails,
// has not returned: the code never gives up, which AttemptCount (or, with
// no attempt limit, BudgetHonoured) reports, and a property about what
// happens once it does has nothing to check.
func (cl *call) skipUnreturned() {
	t := cl.tr.t
	t.Helper()
	if cl.rc.Returned() {
		return
	}
	by := "AttemptCount"
	if cl.tr.c.spec.Policy.Attempts == 0 {
		by = "BudgetHonoured"
	}
	t.Skip(fmt.Sprintf("a call that always fails has not returned %s after it began (%s reports it)", schedfmt.Duration(cl.rc.At()), by))
}

// skipNoRetry skips the property, or the case, that cl, a call that always
// fails, was to show: it made no retry where the property needs one.
// AttemptCount reports a missing retry; a call that waits in vain is
// WaitsOnTheClock's.
func (cl *call) skipNoRetry(where string) {
	t := cl.tr.t
	t.Helper()
	state := "returned after its first attempt"
	if !cl.rc.Returned() {
		state = fmt.Sprintf("is still running %s after it began, with no second attempt", schedfmt.Duration(cl.rc.At()))
	}
	t.Skip(fmt.Sprintf("the call made no retry %s: it %s, so there is no wait to judge (AttemptCount reports a missing retry)", where, state))
}

// run builds the code at src and makes one call answered from script,
// to its end.
func (c *config) run(t tb, src *seqrand.Source, script []answer) *call {
	t.Helper()
	cl := c.newTrial(t, src, script, 1).begin(script, nil)
	cl.finish()
	return cl
}
