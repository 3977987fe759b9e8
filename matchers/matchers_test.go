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

type delaysOnly []time.Duration

func (d delaysOnly) Delays() []time.Duration { return d }

type attemptsOnly []retrytest.Attempt

func (a attemptsOnly) Attempts() []retrytest.Attempt { return a }

var (
	canonical = []retrytest.Attempt{
		{Index: 1, Result: "503 Service Unavailable"},
		{Index: 2, Delay: 100 * ms, At: 100 * ms, Result: "503 Service Unavailable"},
		{Index: 3, Delay: 450 * ms, At: 550 * ms, Result: "ok"},
	}
	seed003 = []time.Duration{500 * ms, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	hour    = retrytest.Spread{Range: win(0, time.Hour), BucketWidth: 5 * time.Minute, MaxRatio: 2}
)

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
			return retrytest.CheckDelaysWithin([]time.Duration{100 * ms, 450 * ms, 900 * ms}, win(50*ms, 150*ms), win(200*ms, 400*ms))
		}, false},
	{"have_delays_within_pass", matchers.HaveDelaysWithin(win(50*ms, 150*ms), win(400*ms, 450*ms)), canonical, nil, true},
	{"have_delays", matchers.HaveDelays(500*ms, time.Second, 2*time.Second), delaysOnly{500 * ms, 500 * ms, 500 * ms},
		func() error {
			return retrytest.CheckDelays(delaysOnly{500 * ms, 500 * ms, 500 * ms}, 500*ms, time.Second, 2*time.Second)
		}, false},
	{"have_delays_pass", matchers.HaveDelays(seed003...), seed003, nil, true},
	{"have_attempts", matchers.HaveAttempts(5), seed003,
		func() error { return retrytest.CheckAttempts(seed003, 5) }, false},
	{"have_attempts_count", matchers.HaveAttempts(5), 4,
		func() error { return retrytest.CheckAttempts(4, 5) }, false},
	{"have_attempts_pass", matchers.HaveAttempts(1), attemptsOnly{{Result: "ok"}}, nil, true},
	{"have_attempts_trailing", matchers.HaveAttempts(2), sleptAfterLast(),
		func() error { return retrytest.CheckAttempts(sleptAfterLast(), 2) }, false},
	{"have_attempts_empty_recorder", matchers.HaveAttempts(1), recorder.New(),
		func() error { return retrytest.CheckAttempts(recorder.New(), 1) }, false},
	{"have_delays_trailing", matchers.HaveDelays(time.Second), sleptAfterLast(),
		func() error { return retrytest.CheckDelays(sleptAfterLast(), time.Second) }, false},
	{"have_attempts_at", matchers.HaveAttemptsAt(0, 500*ms, 1500*ms), []time.Duration{499 * ms, time.Second},
		func() error {
			return retrytest.CheckAttemptsAt([]time.Duration{499 * ms, time.Second}, 0, 500*ms, 1500*ms)
		}, false},
	{"have_attempts_at_pass", matchers.HaveAttemptsAt(0, 500*ms, 1500*ms), []time.Duration{500 * ms, time.Second}, nil, true},
	{"have_total_delay", matchers.HaveTotalDelay(8 * time.Second), seed003[:4],
		func() error { return retrytest.CheckTotalDelay(seed003[:4], 8*time.Second) }, false},
	{"have_total_delay_pass", matchers.HaveTotalDelay(23500 * ms), seed003, nil, true},
	{"be_capped_at", matchers.BeCappedAt(8 * time.Second), append(seed003[:5:5], 16*time.Second),
		func() error { return retrytest.CheckCappedAt(append(seed003[:5:5], 16*time.Second), 8*time.Second) }, false},
	{"be_capped_at_not_reached", matchers.BeCappedAt(8 * time.Second), seed003[:4],
		func() error { return retrytest.CheckCappedAt(seed003[:4], 8*time.Second) }, false},
	{"be_capped_at_pass", matchers.BeCappedAt(8 * time.Second), seed003, nil, true},
	{"be_spread", matchers.BeSpread(hour), repeat(time.Hour, 2000),
		func() error { return retrytest.CheckSpread(repeat(time.Hour, 2000), hour) }, false},
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
	const accepted = "[]time.Duration, []retrytest.Attempt, retrytest.DelaysProvider or retrytest.AttemptsProvider"
	for _, tc := range []struct {
		matcher types.GomegaMatcher
		actual  any
		want    string
	}{
		{matchers.HaveDelaysWithin(win(0, time.Second)), "3s", "HaveDelaysWithin matcher expects a " + accepted + ".  Got:\n    <string>: 3s"},
		{matchers.HaveDelays(time.Second), nil, "HaveDelays matcher expects a " + accepted + ".  Got:\n    <nil>: nil"},
		{matchers.HaveAttempts(3), 2.5, "HaveAttempts matcher expects an int, " + accepted + ".  Got:\n    <float64>: 2.5"},
		{matchers.HaveDelays(time.Second), nilRec, "HaveDelays matcher expects a provider that is not nil.  Got:\n    <*matchers_test.pointerProvider | 0x0>: nil"},
		{matchers.HaveTotalDelay(time.Second), panicky{}, "HaveTotalDelay matcher: matchers_test.panicky.Attempts panicked: recorder closed"},
		{matchers.HaveDelaysWithin(win(5*time.Second, time.Second)), seed003, "HaveDelaysWithin matcher: window 1 of 1 is [5s, 1s], want Min <= Max"},
		{matchers.HaveAttempts(-1), seed003, "HaveAttempts matcher: want -1 attempts, want a count >= 0"},
		{matchers.HaveAttempts(3), -1, "HaveAttempts matcher: got -1 attempts: a count cannot be negative"},
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

func (p *pointerProvider) Delays() []time.Duration { return p.delays }

type panicky struct{}

func (panicky) Attempts() []retrytest.Attempt { panic("recorder closed") }

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
		{"count", matchers.HaveAttempts(3), 2, false},
		{"provider short of attempts", matchers.HaveDelays(time.Second, time.Second), delaysOnly{time.Second}, true},
		{"provider with a wrong delay", matchers.HaveDelays(time.Second, time.Second), delaysOnly{2 * time.Second}, false},
		{"provider with an extra attempt", matchers.HaveAttempts(2), delaysOnly{time.Second, time.Second}, false},
		{"provider passing", matchers.HaveAttempts(2), delaysOnly{time.Second}, true},
		{"provider with a wait after the last attempt", matchers.HaveDelays(time.Second), sleptAfterLast(), true},
		{"provider over the total", matchers.HaveTotalDelay(time.Second), delaysOnly{2 * time.Second}, false},
		{"provider under the total", matchers.HaveTotalDelay(time.Second), delaysOnly{time.Millisecond}, true},
		{"provider over the cap", matchers.BeCappedAt(time.Second), delaysOnly{2 * time.Second}, false},
		{"wrong type", matchers.HaveDelays(), 42, false},
		{"invalid expectation", matchers.HaveAttempts(-1), delaysOnly{}, false},
	} {
		if got := tc.matcher.(oracle).MatchMayChangeInTheFuture(tc.actual); got != tc.want {
			t.Errorf("%s: MatchMayChangeInTheFuture(%v) = %v, want %v", tc.name, tc.actual, got, tc.want)
		}
	}
}
