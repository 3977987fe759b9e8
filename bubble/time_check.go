package bubble

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
	"github.com/retrykit/retrykit/retrytest"
)

// bubbleYears bounds bubble time: within this many years of the instant
// every bubble starts at (fakeclock.Epoch).
// Real time has been more than 25 years past the epoch since before
// synctest existed, and no retry test advances a bubble by a decade.
const bubbleYears = 10

// CheckTime checks that tm is bubble time: within ten years of
// epoch.Time, where the clock of every testing/synctest bubble starts.
// A time read outside a bubble is real time, decades later, and a retry
// policy that captured it is a classic synctest pitfall: a policy with a
// total budget that reads time.Now when it is built (sethvargo/go-retry's
// WithMaxDuration, a deadline computed up front) and is built before
// synctest.Test measures the bubble's clock against a start in 2026, so
// its budget never runs out (or has run out from the start). Check the
// times your policies and contexts captured, such as a context's deadline:
//
//	deadline, _ := ctx.Deadline()
//	bubble.AssertTime(t, deadline)
//
// It returns nil or an error explaining the pitfall.
func CheckTime(tm time.Time) error {
	lo, hi := epoch.Time.AddDate(-bubbleYears, 0, 0), epoch.Time.AddDate(bubbleYears, 0, 0)
	if !tm.Before(lo) && tm.Before(hi) {
		return nil
	}
	epoch := epoch.Time.Format(time.RFC3339)
	switch {
	case tm.IsZero():
		return fmt.Errorf("bubble: got the zero time.Time, want bubble time (from %s): the time was never set", epoch)
	case tm.Before(lo):
		return fmt.Errorf("bubble: time %s is not bubble time: it is more than %d years before %s, where a synctest bubble's clock starts",
			tm.UTC().Format(time.RFC3339Nano), bubbleYears, epoch)
	}
	return fmt.Errorf("bubble: time %s is real time, not bubble time (a synctest bubble's clock starts at %s): "+
		"it was read outside the bubble. A policy or context that captures time.Now when it is built "+
		"(a deadline, a total budget such as sethvargo/go-retry's WithMaxDuration) must be built inside "+
		"the function passed to synctest.Test, or its budget is measured against the wrong clock",
		tm.UTC().Format(time.RFC3339Nano), epoch)
}

// AssertTime is [CheckTime] reported through t.Errorf. It
// returns whether the check passed.
func AssertTime(t retrytest.TestingT, tm time.Time) bool {
	t.Helper()
	if err := CheckTime(tm); err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
