package matchers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

const ms = time.Millisecond

func win(lo, hi time.Duration) retrytest.Window { return retrytest.Window{Min: lo, Max: hi} }

// delaysOnly is a live Schedule that sees waits, not attempts, as a fake
// clock does.
type delaysOnly []time.Duration

func (d delaysOnly) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return nil, nil, d, ""
}

// attemptsOnly is a live Schedule of attempts, with their results, as the
// recorder and the Transport report them.
type attemptsOnly []recorder.Attempt

func (a attemptsOnly) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	at, results := make([]time.Duration, len(a)), make([]string, len(a))
	for i, x := range a {
		at[i], results[i] = x.At, x.Result
	}
	return at, results, nil, ""
}

var (
	canonical = attemptsOnly{
		{Index: 1, Result: "503 Service Unavailable"},
		{Index: 2, Delay: 100 * ms, At: 100 * ms, Result: "503 Service Unavailable"},
		{Index: 3, Delay: 450 * ms, At: 550 * ms, Result: "ok"},
	}
	seed003 = []time.Duration{500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	hour    = retrytest.Spread{Range: win(0, time.Hour), BucketWidth: 5 * time.Minute, MaxRatio: 2}
)

// fourCalls is a sleep recorder of a loop that made four attempts, 100ms
// apart: what a count of calls was.
func fourCalls() *recorder.Recorder {
	rec := recorder.New()
	for i := range 4 {
		if i > 0 {
			rec.Sleep(100 * time.Millisecond)
		}
		rec.Attempt()
	}
	return rec
}

// sleptAfterLast is a sleep recorder of two attempts 1s apart that then
// waited 2s more: the sleep after the final attempt.
func sleptAfterLast() *recorder.Recorder {
	rec := recorder.New()
	rec.Attempt()
	rec.Sleep(time.Second)
	rec.Attempt()
	rec.Sleep(2 * time.Second)
	return rec
}

// sleptZeroAfterLast is sleptAfterLast with a Sleep(0) after the final
// attempt: a wait of no length, which the checks now report too.
func sleptZeroAfterLast() *recorder.Recorder {
	rec := recorder.New()
	rec.Attempt()
	rec.Sleep(time.Second)
	rec.Attempt()
	rec.Sleep(0)
	return rec
}

func repeat(d time.Duration, n int) []time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = d
	}
	return ds
}

func evenly(hi time.Duration, n int) []time.Duration {
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = hi * time.Duration(i) / time.Duration(n)
	}
	return ds
}

// matchCase is one matcher and one actual. check is the retrytest Check
// the matcher adapts, on the same arguments: its report must read the same.
type matchCase struct {
	name    string
	matcher types.GomegaMatcher
	actual  any
	check   func() error
	pass    bool
}

var cases = []matchCase{
	{"have_delays_within", matchers.HaveDelaysWithin(win(50*ms, 150*ms), win(200*ms, 400*ms)), canonical,
		func() error { return retrytest.CheckDelaysWithin(canonical, win(50*ms, 150*ms), win(200*ms, 400*ms)) }, false},
	{"have_delays_within_several", matchers.HaveDelaysWithin(win(50*ms, 150*ms), win(200*ms, 400*ms)), []time.Duration{100 * ms, 450 * ms, 900 * ms},
		func() error {
			return retrytest.CheckDelaysWithin(retrytest.Waits(100*ms, 450*ms, 900*ms), win(50*ms, 150*ms), win(200*ms, 400*ms))
		}, false},
	{"have_delays_within_pass", matchers.HaveDelaysWithin(win(50*ms, 150*ms), win(400*ms, 450*ms)), canonical, nil, true},
	{"have_delays", matchers.HaveDelays(500*ms, time.Second, 2*time.Second), delaysOnly{500 * ms, 500 * ms, 500 * ms},
		func() error {
			return retrytest.CheckDelays(delaysOnly{500 * ms, 500 * ms, 500 * ms}, 500*ms, time.Second, 2*time.Second)
		}, false},
	{"have_delays_pass", matchers.HaveDelays(seed003...), seed003, nil, true},
	{"have_attempts", matchers.HaveAttempts(5), seed003,
		func() error { return retrytest.CheckAttempts(retrytest.Waits(seed003...), 5) }, false},
	// An int no longer counts attempts (see TestWrongInput): a recorder
	// that saw four calls does.
	{"have_attempts_count", matchers.HaveAttempts(5), fourCalls(),
		func() error { return retrytest.CheckAttempts(fourCalls(), 5) }, false},
	{"have_attempts_pass", matchers.HaveAttempts(1), attemptsOnly{{Result: "ok"}}, nil, true},
	{"have_attempts_trailing", matchers.HaveAttempts(2), sleptAfterLast(),
		func() error { return retrytest.CheckAttempts(sleptAfterLast(), 2) }, false},
	{"have_attempts_empty_recorder", matchers.HaveAttempts(1), recorder.New(),
		func() error { return retrytest.CheckAttempts(recorder.New(), 1) }, false},
	{"have_delays_trailing", matchers.HaveDelays(time.Second), sleptAfterLast(),
		func() error { return retrytest.CheckDelays(sleptAfterLast(), time.Second) }, false},
	{"have_delays_trailing_zero", matchers.HaveDelays(time.Second), sleptZeroAfterLast(),
		func() error { return retrytest.CheckDelays(sleptZeroAfterLast(), time.Second) }, false},
	{"have_attempts_at", matchers.HaveAttemptsAt(0, 500*ms, 1500*ms), []time.Duration{499 * ms, time.Second},
		func() error {
			return retrytest.CheckAttemptsAt(retrytest.Waits(499*ms, time.Second), 0, 500*ms, 1500*ms)
		}, false},
	{"have_attempts_at_pass", matchers.HaveAttemptsAt(0, 500*ms, 1500*ms), []time.Duration{500 * ms, time.Second}, nil, true},
	{"have_total_delay", matchers.HaveTotalDelay(8 * time.Second), seed003[:4],
		func() error { return retrytest.CheckTotalDelay(retrytest.Waits(seed003[:4]...), 8*time.Second) }, false},
	{"have_total_delay_pass", matchers.HaveTotalDelay(23500 * ms), seed003, nil, true},
	{"be_capped_at", matchers.BeCappedAt(8 * time.Second), append(seed003[:5:5], 16*time.Second),
		func() error {
			return retrytest.CheckCappedAt(retrytest.Waits(append(seed003[:5:5], 16*time.Second)...), 8*time.Second)
		}, false},
	{"be_capped_at_not_reached", matchers.BeCappedAt(8 * time.Second), seed003[:4],
		func() error { return retrytest.CheckCappedAt(retrytest.Waits(seed003[:4]...), 8*time.Second) }, false},
	{"be_capped_at_pass", matchers.BeCappedAt(8 * time.Second), seed003, nil, true},
	{"be_spread", matchers.BeSpread(hour), repeat(time.Hour, 2000),
		func() error { return retrytest.CheckSpread(retrytest.Waits(repeat(time.Hour, 2000)...), hour) }, false},
	{"be_spread_pass", matchers.BeSpread(retrytest.Spread{Range: win(0, time.Hour), Buckets: 4}), evenly(time.Hour, 400), nil, true},
}

func TestMatchers(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := tc.matcher.Match(tc.actual)
			if err != nil || ok != tc.pass {
				t.Fatalf("Match(%v) = %v, %v, want %v, nil", tc.actual, ok, err, tc.pass)
			}
			var msg string
			if tc.pass {
				msg = tc.matcher.NegatedFailureMessage(tc.actual)
				gomega.NewWithT(t).Expect(tc.actual).To(tc.matcher)
			} else {
				msg = tc.matcher.FailureMessage(tc.actual)
				gomega.NewWithT(t).Expect(tc.actual).NotTo(tc.matcher)
			}
			golden.Check(t, tc.name, msg+"\n")
			for line := range strings.SplitSeq(msg, "\n") {
				if strings.TrimRight(line, " \t") != line {
					t.Errorf("line %q has trailing space", line)
				}
			}
			if tc.check != nil {
				sameReport(t, msg, tc.check())
			}
		})
	}
}

// sameReport checks that the matcher's message and the Check's error carry
// the same table and the same violations, whatever the indentation.
func sameReport(t *testing.T, gomegaMsg string, checkErr error) {
	t.Helper()
	if checkErr == nil {
		t.Fatalf("the Check passed where the matcher failed")
	}
	trim := func(s string) []string {
		var out []string
		for line := range strings.SplitSeq(s, "\n") {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, "retrytest: "), "to ")))
		}
		return out
	}
	gm := strings.Join(trim(gomegaMsg), "\n")
	for _, line := range trim(checkErr.Error()) {
		line = strings.TrimSuffix(line, ":")
		if !strings.Contains(gm, line) {
			t.Errorf("the Check's line %q is missing from the matcher's message:\n%s", line, gomegaMsg)
		}
	}
}

func TestWrongInput(t *testing.T) {
	var nilRec *pointerProvider
	const accepted = "a retrytest.Schedule (the recorder, a fake clock, a Transport, a Stopwatch, a policysim.Job) or a []time.Duration of waits"
	for _, tc := range []struct {
		matcher types.GomegaMatcher
		actual  any
		want    string
	}{
		{matchers.HaveDelaysWithin(win(0, time.Second)), "3s", "HaveDelaysWithin matcher expects " + accepted + ".  Got:\n    <string>: 3s"},
		{matchers.HaveDelays(time.Second), nil, "HaveDelays matcher expects " + accepted + ".  Got:\n    <nil>: nil"},
		{matchers.HaveAttempts(3), 2.5, "HaveAttempts matcher expects " + accepted + ".  Got:\n    <float64>: 2.5"},
		// An int counted attempts; it is now an input error like any other
		// type, as are a []recorder.Attempt and a []int of milliseconds.
		{matchers.HaveAttempts(5), 4, "HaveAttempts matcher expects " + accepted + ".  Got:\n    <int>: 4"},
		{matchers.HaveAttempts(3), -1, "HaveAttempts matcher expects " + accepted + ".  Got:\n    <int>: -1"},
		{matchers.HaveDelays(time.Second), []recorder.Attempt{{Index: 1}}, "HaveDelays matcher expects " + accepted + ".  Got:\n    <[]recorder.Attempt | len:1, cap:1>: [\n        {Index: 1, At: 0, Delay: 0, Result: \"\"},\n    ]"},
		{matchers.HaveDelays(time.Second), []int{1000}, "HaveDelays matcher expects " + accepted + ".  Got:\n    <[]int | len:1, cap:1>: [1000]"},
		{matchers.HaveDelays(time.Second), nilRec, "HaveDelays matcher expects a Schedule that is not nil.  Got:\n    <*matchers_test.pointerProvider | 0x0>: nil"},
		{matchers.HaveTotalDelay(time.Second), panicky{}, "HaveTotalDelay matcher: matchers_test.panicky.RetrySchedule panicked: recorder closed"},
		{matchers.HaveDelaysWithin(win(5*time.Second, time.Second)), seed003, "HaveDelaysWithin matcher: window 1 of 1 is [5s, 1s], want Min <= Max"},
		{matchers.HaveAttempts(-1), seed003, "HaveAttempts matcher: want -1 attempts, want a count >= 0"},
		{matchers.HaveDelays(-time.Second), seed003, "HaveDelays matcher: want delay 1 of 1 = -1s, want a delay >= 0s"},
		{matchers.HaveAttemptsAt(time.Second, 0), seed003, "HaveAttemptsAt matcher: want offset 2 of 2 = 0s comes before offset 1 = 1s, want offsets in order"},
		{matchers.HaveTotalDelay(-time.Second), seed003, "HaveTotalDelay matcher: want a total delay of -1s, want a total >= 0s"},
		{matchers.BeCappedAt(0), seed003, "BeCappedAt matcher: cap 0s, want a cap > 0s"},
		{matchers.BeSpread(retrytest.Spread{Range: win(0, time.Hour), BucketWidth: 7 * time.Minute}), seed003, "BeSpread matcher: bucket width 7m does not divide the range [0s, 1h] (1h) evenly"},
	} {
		ok, err := tc.matcher.Match(tc.actual)
		if ok || err == nil || err.Error() != tc.want {
			t.Errorf("Match(%#v) = %v, %v,\nwant false, %s", tc.actual, ok, err, tc.want)
		}
		// An error fails the assertion negated or not, and does not panic.
		var failures []string
		g := gomega.NewGomega(func(message string, _ ...int) { failures = append(failures, message) })
		g.Expect(tc.actual).To(tc.matcher)
		g.Expect(tc.actual).NotTo(tc.matcher)
		if len(failures) != 2 {
			t.Errorf("Expect(%#v) To and NotTo reported %d failures, want 2", tc.actual, len(failures))
		}
	}
}

type pointerProvider struct{ delays []time.Duration }

func (p *pointerProvider) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return nil, nil, p.delays, ""
}

type panicky struct{}

func (panicky) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	panic("recorder closed")
}

// TestMatchResetsState reuses one matcher on a failing and then a passing
// actual: the second message must not mention the first.
func TestMatchResetsState(t *testing.T) {
	m := matchers.HaveDelays(500*ms, time.Second)
	if ok, _ := m.Match([]time.Duration{500 * ms, 2 * time.Second}); ok {
		t.Fatal("first Match passed, want a failure")
	}
	if ok, err := m.Match([]time.Duration{500 * ms, time.Second}); !ok || err != nil {
		t.Fatalf("second Match = %v, %v, want true, nil", ok, err)
	}
	if msg := m.NegatedFailureMessage(nil); strings.Contains(msg, "2s") || strings.Contains(msg, "<--") {
		t.Errorf("NegatedFailureMessage after a passing Match still shows the earlier failure:\n%s", msg)
	}
	if _, err := m.Match(42); err == nil {
		t.Fatal("Match(42) = nil error, want one")
	}
	if m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(42) {
		t.Errorf("MatchMayChangeInTheFuture after an input error = true, want false")
	}
}

func TestMatchMayChangeInTheFuture(t *testing.T) {
	type oracle interface{ MatchMayChangeInTheFuture(any) bool }
	for _, tc := range []struct {
		name    string
		matcher types.GomegaMatcher
		actual  any
		want    bool
	}{
		{"slice", matchers.HaveDelays(time.Second), []time.Duration{}, false},
		{"Waits", matchers.HaveDelays(time.Second, time.Second), retrytest.Waits(time.Second), false},
		{"an int, no longer a count", matchers.HaveAttempts(3), 2, false},
		{"live Schedule short of attempts", matchers.HaveDelays(time.Second, time.Second), delaysOnly{time.Second}, true},
		{"live Schedule with a wrong delay", matchers.HaveDelays(time.Second, time.Second), delaysOnly{2 * time.Second}, false},
		{"live Schedule with an extra attempt", matchers.HaveAttempts(2), delaysOnly{time.Second, time.Second}, false},
		{"live Schedule passing", matchers.HaveAttempts(2), delaysOnly{time.Second}, true},
		{"live Schedule with a wait after the last attempt", matchers.HaveDelays(time.Second), sleptAfterLast(), true},
		{"live Schedule over the total", matchers.HaveTotalDelay(time.Second), delaysOnly{2 * time.Second}, false},
		{"live Schedule under the total", matchers.HaveTotalDelay(time.Second), delaysOnly{time.Millisecond}, true},
		{"live Schedule over the cap", matchers.BeCappedAt(time.Second), delaysOnly{2 * time.Second}, false},
		{"wrong type", matchers.HaveDelays(), 42, false},
		{"invalid expectation", matchers.HaveAttempts(-1), delaysOnly{}, false},
	} {
		if got := tc.matcher.(oracle).MatchMayChangeInTheFuture(tc.actual); got != tc.want {
			t.Errorf("%s: MatchMayChangeInTheFuture(%v) = %v, want %v", tc.name, tc.actual, got, tc.want)
		}
	}
}
