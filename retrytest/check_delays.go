package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckDelays checks that got waited exactly want between its attempts:
// want[i] before attempt i+2, len(want)+1 attempts in all, and nothing
// before attempt 1 or after the last. got is a []time.Duration of waits
// between attempts, a []Attempt, or an [AttemptsProvider] or
// [DelaysProvider] (the recorder, the transport, the fake clock), read as
// "What a check reads" in the package doc says.
//
// It returns nil, a [*ScheduleError] listing every wrong, missing and extra
// delay over the whole schedule, or an error for input it cannot check (nil
// or another type, a nil provider, a negative want).
//
//	err := retrytest.CheckDelays(rec, 500*time.Millisecond, time.Second, 2*time.Second)
func CheckDelays(got any, want ...time.Duration) error {
	return check("CheckDelays", got, false, schedcheck.ValidateDelays(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.Delays(s, want)
	})
}

// AssertDelays is [CheckDelays] reported through t.Errorf. It returns
// whether the check passed.
func AssertDelays(t TestingT, got any, want ...time.Duration) bool {
	t.Helper()
	return report(t, CheckDelays(got, want...))
}

// RequireDelays is [AssertDelays] followed by t.FailNow on failure. It must
// be called from the goroutine running the test.
func RequireDelays(t TestingT, got any, want ...time.Duration) {
	t.Helper()
	if !AssertDelays(t, got, want...) {
		t.FailNow()
	}
}
