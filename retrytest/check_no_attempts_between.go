package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckNoAttemptsBetween checks that no attempt of got began at an offset
// in [from, to): the promise of an open circuit breaker, which sends
// nothing from the request that opened it until it half-opens. With a
// breaker that opened on a request at 5s and half-opens a minute later:
//
//	err := retrytest.CheckNoAttemptsBetween(tr, 5*time.Second+1, 65*time.Second)
//
// Count at the transport (an httpscript.Transport): a breaker that only
// spaces the failures out still sends them. got is read as by
// [CheckAttemptsAt]. It returns nil, a [*ScheduleError] whose table shows
// the span's two edges as rows among the attempts and marks the first
// attempt inside it, or an error for input it cannot check (a span that
// holds no instant, a nil Schedule).
func CheckNoAttemptsBetween(got Schedule, from, to time.Duration) error {
	return check("CheckNoAttemptsBetween", got, schedcheck.ValidateBetween(from, to), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.NoAttemptsBetween(s, from, to)
	})
}

// AssertNoAttemptsBetween is [CheckNoAttemptsBetween] reported through
// t.Errorf. It returns whether the check passed.
func AssertNoAttemptsBetween(t TestingT, got Schedule, from, to time.Duration) bool {
	t.Helper()
	return report(t, CheckNoAttemptsBetween(got, from, to))
}
