package retrytest

import "github.com/retrykit/retrykit/internal/schedcheck"

// CheckAttempts checks that got made want attempts, and waited nothing
// after the last. Attempts count the first call: 5 attempts are 4 retries,
// and the message gives both numbers because that off-by-one is the usual
// bug. got is an int counting attempts or a schedule read as by
// [CheckDelays]. A [DelaysProvider] such as the fake clock records waits,
// not attempts: its n waits read as n+1 attempts, and a failure says so.
//
// It returns nil, a [*ScheduleError] whose table marks the first missing or
// extra attempt (or the wait after the last), or an error for input it
// cannot check (a negative count, a nil provider, …).
func CheckAttempts(got any, want int) error {
	return check("CheckAttempts", got, true, schedcheck.ValidateCount(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.Attempts(s, want)
	})
}

// AssertAttempts is [CheckAttempts] reported through t.Errorf. It returns
// whether the check passed.
func AssertAttempts(t TestingT, got any, want int) bool {
	t.Helper()
	return report(t, CheckAttempts(got, want))
}

// RequireAttempts is [AssertAttempts] followed by t.FailNow on failure. It
// must be called from the goroutine running the test.
func RequireAttempts(t TestingT, got any, want int) {
	t.Helper()
	if !AssertAttempts(t, got, want) {
		t.FailNow()
	}
}
