package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckAttemptsAt checks when each attempt happened: attempt i+1 at offset
// want[i] from the start of the schedule, and len(want) attempts in all. A
// want starting at 0 pins that the first attempt is immediate:
//
//	err := retrytest.CheckAttemptsAt(rec, 0, 500*time.Millisecond, 1500*time.Millisecond)
//
// got is read as by [CheckDelays]; the offsets of waits are their running
// sums. The schedule of an httpscript.Transport or a recorder.Stopwatch
// starts when it was made inside a synctest bubble or given its clock
// (WithClock), so a wait before the first attempt fails a want of 0; made
// outside a bubble without a clock, it starts at the first attempt. It
// returns nil, a
// [*ScheduleError], or an error for input it cannot check (negative or
// decreasing offsets, a nil Schedule).
func CheckAttemptsAt(got Schedule, want ...time.Duration) error {
	return check("CheckAttemptsAt", got, schedcheck.ValidateOffsets(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.AttemptsAt(s, want)
	})
}

// AssertAttemptsAt is [CheckAttemptsAt] reported through t.Errorf. It
// returns whether the check passed.
func AssertAttemptsAt(t TestingT, got Schedule, want ...time.Duration) bool {
	t.Helper()
	return report(t, CheckAttemptsAt(got, want...))
}
