package retrytest

import "github.com/retrykit/retrykit/internal/schedcheck"

// CheckDelaysWithin checks that every wait of got falls in its window:
// want[i] is the window of the delay before attempt i+2 (attempt 1 must be
// immediate), and got makes len(want)+1 attempts. Build the windows with
// [Policy.Windows] or write them out. got is read as by [CheckDelays].
//
// It returns nil, a [*ScheduleError] listing every delay outside its
// window and every missing or extra attempt, or an error for input it
// cannot check (a window that holds no delay, a nil Schedule).
//
//	policy := retrytest.Policy{First: time.Second, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, Attempts: 5}
//	err := retrytest.CheckDelaysWithin(rec, policy.Windows()...)
func CheckDelaysWithin(got Schedule, want ...Window) error {
	return check("CheckDelaysWithin", got, schedcheck.ValidateWindows(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.DelaysWithin(s, want)
	})
}

// AssertDelaysWithin is [CheckDelaysWithin] reported through t.Errorf. It
// returns whether the check passed.
func AssertDelaysWithin(t TestingT, got Schedule, want ...Window) bool {
	t.Helper()
	return report(t, CheckDelaysWithin(got, want...))
}
