package retrytest

import "github.com/retrykit/retrykit/internal/schedcheck"

// CheckDelaysWithin checks that every wait of got falls in its window:
// want[i] is the window of the delay before attempt i+2 (attempt 1 must be
// immediate), and got makes len(want)+1 attempts. Windows are inclusive;
// build them with [Exponential] or write them out. got is read as by
// [CheckDelays].
//
// It returns nil, a [*ScheduleError] listing every delay outside its
// window and every missing or extra attempt, or an error for input it
// cannot check (a window whose Min is after its Max, a nil provider, …).
//
//	err := retrytest.CheckDelaysWithin(delays,
//		retrytest.Exponential(time.Second, 2, 30*time.Second, 5, retrytest.WithFullJitter())...)
func CheckDelaysWithin(got any, want ...Window) error {
	ws := make([]schedcheck.Window, len(want))
	for i, w := range want {
		ws[i] = schedcheck.Window(w)
	}
	return check("CheckDelaysWithin", got, false, schedcheck.ValidateWindows(ws), func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.DelaysWithin(s, ws)
	})
}

// AssertDelaysWithin is [CheckDelaysWithin] reported through t.Errorf. It
// returns whether the check passed.
func AssertDelaysWithin(t TestingT, got any, want ...Window) bool {
	t.Helper()
	return report(t, CheckDelaysWithin(got, want...))
}

// RequireDelaysWithin is [AssertDelaysWithin] followed by t.FailNow on
// failure. It must be called from the goroutine running the test.
func RequireDelaysWithin(t TestingT, got any, want ...Window) {
	t.Helper()
	if !AssertDelaysWithin(t, got, want...) {
		t.FailNow()
	}
}
