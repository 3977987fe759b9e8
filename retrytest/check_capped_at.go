package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckCappedAt checks that no delay of got exceeds maxDelay and that some
// delay reaches it exactly, so the cap is both obeyed and in force: the
// ladder 500ms, 1s, 2s, 4s, 8s, 8s is capped at 8s; the same ladder cut
// short at 4s is not. For jittered delays, which rarely hit the cap, check
// windows with [CheckDelaysWithin] instead. got is read as by
// [CheckDelays]; a wait after the last attempt counts as a delay.
//
// It returns nil, a [*ScheduleError] marking the first delay over the cap
// (or the longest delay, when none reaches it), or an error for input it
// cannot check (a cap <= 0, a nil Schedule).
func CheckCappedAt(got Schedule, maxDelay time.Duration) error {
	return check("CheckCappedAt", got, schedcheck.ValidateCap(maxDelay), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.CappedAt(s, maxDelay)
	})
}

// AssertCappedAt is [CheckCappedAt] reported through t.Errorf. It returns
// whether the check passed.
func AssertCappedAt(t TestingT, got Schedule, maxDelay time.Duration) bool {
	t.Helper()
	return report(t, CheckCappedAt(got, maxDelay))
}
