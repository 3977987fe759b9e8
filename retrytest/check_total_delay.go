package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// CheckTotalDelay checks that the delays of got add up to exactly want: the
// time a caller waits in all, which an overall deadline must cover, a wait
// after the last attempt included. got is read as by [CheckDelays]. It
// returns nil, a [*ScheduleError] whose table marks the last row, or an
// error for input it cannot check.
func CheckTotalDelay(got Schedule, want time.Duration) error {
	return check("CheckTotalDelay", got, schedcheck.ValidateTotal(want), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.TotalDelay(s, want)
	})
}

// AssertTotalDelay is [CheckTotalDelay] reported through t.Errorf. It
// returns whether the check passed.
func AssertTotalDelay(t TestingT, got Schedule, want time.Duration) bool {
	t.Helper()
	return report(t, CheckTotalDelay(got, want))
}
