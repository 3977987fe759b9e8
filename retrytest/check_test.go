package retrytest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var canonical = []recorder.Attempt{
	{Index: 1, Result: "503 Service Unavailable"},
	{Index: 2, Delay: 100 * ms, At: 100 * ms, Result: "503 Service Unavailable"},
	{Index: 3, Delay: 450 * ms, At: 550 * ms, Result: "ok"},
}

// seed003 is the ladder of seed 003: 500ms doubling to an 8s cap.
var seed003 = []time.Duration{500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}

// long is a 30-attempt schedule of 1s waits with one 5s wait before
// attempt 15.
func long() []time.Duration {
	ds := make([]time.Duration, 29)
	for i := range ds {
		ds[i] = time.Second
	}
	ds[13] = 5 * time.Second
	return ds
}

func repeat(d time.Duration, n int) []time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = d
	}
	return ds
}

// evenly returns n delays spread evenly over [0, hi).
func evenly(hi time.Duration, n int) []time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = hi * time.Duration(i) / time.Duration(n)
	}
	return ds
}

// recorded is a sleep recorder that marked an attempt before each of the
// waits in between (nil, for none, for a wait after the previous attempt)
// and then the waits after. sleptAfter(3, 1s, 2s, 4s) is three attempts
// 1s and 2s apart, then a 4s wait that no attempt follows.
func sleptAfter(attempts int, waits ...time.Duration) *recorder.Recorder {
	rec := recorder.New()
	for i := range attempts {
		if i > 0 {
			rec.Sleep(waits[i-1])
		}
		rec.Attempt()
		rec.AttemptResult(errors.New("503 Service Unavailable"))
	}
	for _, d := range waits[max(attempts-1, 0):] {
		rec.Sleep(d)
	}
	return rec
}

var hour = retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}

// failing lists one case per kind of failure; each message is pinned in
// testdata/<name>.golden.
var failing = []struct {
	name string
	f    forms
}{
	{"delays_within", within(canonical, win(50*ms, 150*ms), win(200*ms, 400*ms))},
	{"delays_within_several", within([]time.Duration{100 * ms, 450 * ms, 900 * ms, time.Second}, win(50*ms, 150*ms), win(200*ms, 400*ms), win(400*ms, 800*ms))},
	{"delays_within_missing", within(delaysOnly{100 * ms}, win(50*ms, 150*ms), win(200*ms, 400*ms))},
	{"delays_within_no_attempts", within(attemptsOnly{}, win(50*ms, 150*ms))},
	{"delays_within_first_waited", within([]recorder.Attempt{{Delay: 500 * ms, At: 500 * ms}, {Delay: 500 * ms, At: time.Second}}, win(500*ms, 500*ms))},
	{"delays_within_folded", within(long(), retrytest.Policy{First: time.Second, Growth: 1, Attempts: 30}.Windows()...)},
	{"delays_stuck", delays([]time.Duration{500 * ms, 500 * ms, 500 * ms}, 500*ms, time.Second, 2*time.Second)},
	{"delays_extra", delays(delaysOnly{500 * ms, time.Second, 2 * time.Second}, 500*ms, time.Second)},
	{"attempts_extra", attempts([]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}, 5)},
	{"attempts_missing", attempts(attemptsOnly{{Result: "429"}, {Delay: time.Second, At: time.Second, Result: "ok"}}, 3)},
	{"attempts_at", attemptsAt([]time.Duration{499 * ms, 1000 * ms}, 0, 500*ms, 1500*ms)},
	{"attempts_at_missing", attemptsAt([]time.Duration{500 * ms}, 0, 500*ms, 1500*ms)},
	{"total_delay", totalDelay(seed003[:4], 8*time.Second)},
	{"capped_over", cappedAt(append(seed003[:5:5], 16*time.Second), 8*time.Second)},
	{"capped_not_reached", cappedAt(seed003[:4], 8*time.Second)},
	{"capped_no_delays", cappedAt([]time.Duration{}, 8*time.Second)},
	{"spread_spike", spread(repeat(time.Hour, 2000), hour)},
	{"spread_gap", spread(evenly(30*time.Minute, 600), retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, Buckets: 6})},
	{"spread_outside", spread(append(evenly(time.Hour, 119), time.Hour+time.Second), hour)},
	{"spread_empty", spread([]time.Duration{}, hour)},
	{"delays_trailing", delays(sleptAfter(3, time.Second, 2*time.Second, 4*time.Second), time.Second, 2*time.Second)},
	{"delays_within_trailing_missing", within(sleptAfter(3, time.Second, 2*time.Second, 4*time.Second), win(time.Second, 2*time.Second), win(2*time.Second, 4*time.Second), win(4*time.Second, 8*time.Second))},
	{"delays_trailing_extra", delays(sleptAfter(3, time.Second, 2*time.Second, 4*time.Second), time.Second)},
	{"attempts_trailing", attempts(sleptAfter(1, time.Second), 1)},
	{"attempts_at_trailing", attemptsAt(sleptAfter(2, time.Second, 2*time.Second), 0, time.Second)},
	{"total_delay_trailing", totalDelay(sleptAfter(3, time.Second, 2*time.Second, 4*time.Second), 3*time.Second)},
	{"capped_trailing", cappedAt(sleptAfter(3, time.Second, 2*time.Second, 4*time.Second), 2*time.Second)},
	{"attempts_waits_provider", attempts(delaysOnly{}, 3)},
	{"attempts_unmarked_recorder", attempts(sleptAfter(0, time.Second, time.Second), 1)},
	{"attempts_empty_recorder", attempts(recorder.New(), 1)},
}

func TestFailureMessages(t *testing.T) {
	for _, tc := range failing {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f.check()
			if err == nil {
				t.Fatalf("check passed, want a failure")
			}
			var se *retrytest.ScheduleError
			if !errors.As(err, &se) {
				t.Fatalf("check = %T, want a *retrytest.ScheduleError", err)
			}
			msg := err.Error()
			golden.Check(t, "check_"+tc.name, msg+"\n")
			for line := range strings.SplitSeq(msg, "\n") {
				if strings.TrimRight(line, " \t") != line {
					t.Errorf("line %q has trailing space", line)
				}
			}
			if !strings.HasPrefix(msg, "retrytest: ") {
				t.Errorf("message starts %q, want a summary line starting \"retrytest: \"", strings.SplitN(msg, "\n", 2)[0])
			}

			// The two forms say the same thing.
			a := run(func(t retrytest.TestingT) {
				if tc.f.assert(t) {
					t.Errorf("assert returned true")
				}
			})
			if len(a.Errors) != 1 || a.Errors[0] != msg || a.FailedNow || a.Helpers == 0 {
				t.Errorf("assert reported %q (FailNow %v, Helper %d calls), want %q once, no FailNow, Helper called", a.Errors, a.FailedNow, a.Helpers, msg)
			}
		})
	}
}

func TestPassing(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    forms
	}{
		{"delays_within", within(canonical, win(50*ms, 150*ms), win(400*ms, 450*ms))},
		{"delays_within_endpoints", within([]time.Duration{50 * ms, 150 * ms}, win(50*ms, 150*ms), win(150*ms, 150*ms))},
		{"delays_within_one_attempt", within([]time.Duration{})},
		{"delays", delays(seed003, retrytest.Policy{First: 500 * ms, Growth: 2, Cap: 8 * time.Second, Attempts: 7}.Windows()[0].Min, time.Second, 2*time.Second, 4*time.Second, 8*time.Second, 8*time.Second)},
		{"delays_none", delays(delaysOnly(nil))},
		{"attempts", attempts(seed003, 7)},
		{"attempts_zero", attempts(attemptsOnly{}, 0)},
		{"attempts_zero_recorder", attempts(recorder.New(), 0)},
		{"attempts_one_delays_provider", attempts(delaysOnly{}, 1)},
		{"delays_recorder_no_trailing", delays(sleptAfter(3, time.Second, 2*time.Second), time.Second, 2*time.Second)},
		{"total_delay_trailing", totalDelay(sleptAfter(2, time.Second, 2*time.Second), 3*time.Second)},
		{"attempts_at", attemptsAt([]time.Duration{500 * ms, time.Second}, 0, 500*ms, 1500*ms)},
		{"total_delay", totalDelay(seed003, 23500*ms)},
		{"capped", cappedAt(seed003, 8*time.Second)},
		{"spread", spread(evenly(time.Hour, 2000), hour)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.f.check(); err != nil {
				t.Errorf("check = %v, want nil", err)
			}
			a := run(func(t retrytest.TestingT) {
				if !tc.f.assert(t) {
					t.Errorf("assert returned false")
				}
			})
			if len(a.Errors) > 0 || a.FailedNow {
				t.Errorf("assert reported %q (FailNow %v), want nothing", a.Errors, a.FailedNow)
			}
		})
	}
}

// TestInputErrors pins the error of each input a check cannot work with.
// Each is reported, never a panic, and the same in both forms. (A value
// that is no Schedule does not compile.)
func TestInputErrors(t *testing.T) {
	var nilRec *pointerProvider
	for _, tc := range []struct {
		f    forms
		want string
	}{
		{within(nil), "retrytest: CheckDelaysWithin: got a nil Schedule, want a recorder, a fake clock, a Transport, a Stopwatch or Waits(...)"},
		{delays(nilRec), "retrytest: CheckDelays: *retrytest_test.pointerProvider.RetrySchedule panicked: runtime error: invalid memory address or nil pointer dereference"},
		{delays(panicky{}), "retrytest: CheckDelays: retrytest_test.panicky.RetrySchedule panicked: recorder closed"},
		{within([]time.Duration{time.Second}, win(5*time.Second, time.Second)), "retrytest: CheckDelaysWithin: window 1 of 1 is [5s, 1s], want Min <= Max"},
		{within(nil, win(0, time.Second), win(5*time.Second, time.Second)), "retrytest: CheckDelaysWithin: window 2 of 2 is [5s, 1s], want Min <= Max"},
		{within([]time.Duration{time.Second}, retrytest.Window{Min: time.Second, Max: time.Second, Open: true}), "retrytest: CheckDelaysWithin: window 1 of 1 is [1s, 1s), which holds no delay, want Min < Max for an open window"},
		{delays([]time.Duration{}, -time.Second), "retrytest: CheckDelays: want delay 1 of 1 = -1s, want a delay >= 0s"},
		{attempts([]time.Duration{}, -1), "retrytest: CheckAttempts: want -1 attempts, want a count >= 0"},
		{attemptsAt(nil, 0, -time.Second), "retrytest: CheckAttemptsAt: want offset 2 of 2 = -1s, want an offset >= 0s"},
		{attemptsAt(nil, 0, time.Second, 500*ms), "retrytest: CheckAttemptsAt: want offset 3 of 3 = 500ms comes before offset 2 = 1s, want offsets in order"},
		{totalDelay(nil, -time.Second), "retrytest: CheckTotalDelay: want a total delay of -1s, want a total >= 0s"},
		{cappedAt(seed003, 0), "retrytest: CheckCappedAt: cap 0s, want a cap > 0s"},
		{spread(seed003, retrytest.Spread{}), "retrytest: CheckSpread: range [0s, 0s], want 0s <= Min < Max"},
		{spread(seed003, retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 7 * time.Minute}), "retrytest: CheckSpread: bucket width 7m does not divide the range [0s, 1h] (1h) evenly"},
		{spread(seed003, retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, MaxRatio: 0.5}), "retrytest: CheckSpread: max ratio 0.5, want a ratio > 1"},
	} {
		err := tc.f.check()
		if err == nil || err.Error() != tc.want {
			t.Errorf("check = %v,\nwant %s", err, tc.want)
			continue
		}
		var se *retrytest.ScheduleError
		if errors.As(err, &se) {
			t.Errorf("check = %T, want a plain error (bad input is not a failed schedule)", err)
		}
		a := run(func(t retrytest.TestingT) { tc.f.assert(t) })
		if len(a.Errors) != 1 || a.Errors[0] != tc.want || a.FailedNow {
			t.Errorf("assert reported %q (FailNow %v), want %q once and no FailNow", a.Errors, a.FailedNow, tc.want)
		}
	}
}

func TestScheduleErrorUnwrap(t *testing.T) {
	err := retrytest.CheckDelaysWithin(retrytest.Waits(100*ms, 450*ms, 900*ms), win(50*ms, 150*ms), win(200*ms, 400*ms))
	se, ok := errors.AsType[*retrytest.ScheduleError](err)
	if !ok {
		t.Fatalf("CheckDelaysWithin = %T, want a *ScheduleError", err)
	}
	var got []string
	for _, v := range se.Violations {
		got = append(got, v.Error())
	}
	want := []string{"attempt 3 of 4: delay = 450ms, want within [200ms, 400ms]", "got 4 attempts, want 3"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Violations = %q, want %q", got, want)
	}
	v, ok := errors.AsType[*retrytest.Violation](err)
	if !ok || v.Attempt != 3 {
		t.Errorf("errors.AsType[*Violation] = %+v, %v, want the violation at attempt 3", v, ok)
	}
	if !errors.Is(err, se.Violations[1]) {
		t.Errorf("errors.Is(err, second violation) = false, want true")
	}
	if wantSched := "retry schedule (4 attempts):\n"; !strings.HasPrefix(se.Table, wantSched) {
		t.Errorf("Schedule starts %q, want %q", se.Table[:min(len(se.Table), 40)], wantSched)
	}
}

// TestAttemptCountWording pins when the summary of a wrong count gives the
// retries: on a side of two attempts or more, and on a side of one when
// the other side has retries to compare with.
func TestAttemptCountWording(t *testing.T) {
	for _, tc := range []struct {
		got, want int
		text      string
	}{
		{0, 1, "got 0 attempts, want 1"},
		{1, 0, "got 1 attempt, want 0"},
		{0, 2, "got 0 attempts, want 2 (1 retry)"},
		{1, 2, "got 1 attempt (0 retries), want 2 (1 retry)"},
		{2, 1, "got 2 attempts (1 retry), want 1 (0 retries)"},
		{4, 5, "got 4 attempts (3 retries), want 5 (4 retries)"},
		{3, 0, "got 3 attempts (2 retries), want 0"},
	} {
		err := retrytest.CheckAttempts(make(attemptsOnly, tc.got), tc.want)
		if want := "retrytest: " + tc.text + "\n"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("CheckAttempts(%d attempts, %d) = %v, want a first line %q", tc.got, tc.want, err, want)
		}
	}
}

// TestExactWindows: a window whose ends are equal reads as its one delay,
// in the table and in the message.
func TestExactWindows(t *testing.T) {
	err := retrytest.CheckDelaysWithin(retrytest.Waits(400*ms, time.Second), win(500*ms, 500*ms), win(ms, time.Second))
	want := "retrytest: attempt 2 of 3: delay = 400ms, want 500ms\n" +
		"retry schedule (3 attempts):\n" +
		"    attempt  delay  at     want\n" +
		"    1        0s     0s     0s\n" +
		"  > 2        400ms  400ms  500ms  <-- delay 400ms, want 500ms\n" +
		"    3        1s     1.4s   [1ms, 1s]"
	if err == nil || err.Error() != want {
		t.Errorf("CheckDelaysWithin(400ms, 1s) =\n%v\nwant\n%s", err, want)
	}
}

// TestAttemptsOnAFakeClock: the fake clock records waits, not attempts, so
// a clock nothing waited on reads as one attempt, and the failure says so.
func TestAttemptsOnAFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	retrytest.AssertAttempts(t, clk, 1)
	err := retrytest.CheckAttempts(clk, 3)
	want := "retrytest: got 1 attempt (0 retries), want 3 (2 retries): *fakeclock.Clock saw waits, not attempts, and its 0 waits read as 1 attempt"
	if err == nil || !strings.HasPrefix(err.Error(), want+"\n") {
		t.Errorf("CheckAttempts(fake clock, 3) = %v, want a failure starting %q", err, want)
	}
}
