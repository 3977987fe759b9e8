package retrytest

import "github.com/retrykit/retrykit/internal/schedcheck"

// CheckAttempts checks that got made want attempts, and waited nothing
// after the last. Attempts count the first call: 5 attempts are 4 retries,
// and the message gives both numbers because that off-by-one is the usual
// bug. got is read as by [CheckDelays]. A source that sees waits, not
// attempts, such as the fake clock, reads its n waits as n+1 attempts, and
// a failure says so.
//
// It returns nil, a [*ScheduleError] whose table marks the first missing or
// extra attempt (or the wait after the last), or an error for input it
// cannot check (a negative count, a nil Schedule).
func CheckAttempts(got Schedule, want int) error {
	return check("CheckAttempts", got, schedcheck.ValidateCount(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.Attempts(s, want)
	})
}

// AssertAttempts is [CheckAttempts] reported through t.Errorf. It returns
// whether the check passed.
func AssertAttempts(t TestingT, got Schedule, want int) bool {
	t.Helper()
	return report(t, CheckAttempts(got, want))
}
