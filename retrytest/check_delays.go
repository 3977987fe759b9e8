package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckDelays checks that got waited exactly want between its attempts:
// want[i] before attempt i+2, len(want)+1 attempts in all, and nothing
// before attempt 1 or after the last. got is any [Schedule] — the
// recorder, the transport, the fake clock, [Waits] — read as "What a check
// reads" in the package doc says.
//
// It returns nil, a [*ScheduleError] listing every wrong, missing and extra
// delay over the whole schedule, or an error for input it cannot check (a
// nil Schedule, a negative want).
//
//	err := retrytest.CheckDelays(rec, 500*time.Millisecond, time.Second, 2*time.Second)
func CheckDelays(got Schedule, want ...time.Duration) error {
	return check("CheckDelays", got, schedcheck.ValidateDelays(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.Delays(s, want)
	})
}

// AssertDelays is [CheckDelays] reported through t.Errorf. It returns
// whether the check passed.
func AssertDelays(t TestingT, got Schedule, want ...time.Duration) bool {
	t.Helper()
	return report(t, CheckDelays(got, want...))
}
