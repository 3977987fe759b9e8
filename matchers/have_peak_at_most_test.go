package matchers_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// every retries after d, for attempts attempts in all.
func every(d time.Duration, attempts int) func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	return func(failed int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: failed+1 < attempts, Delay: d}
	}
}

// storm is 300 jobs failing together through a 10-minute outage, retrying
// every minute: all 300 arrive in the first minute after recovery.
func storm(t *testing.T) *policysim.Load {
	t.Helper()
	l, err := policysim.Fleet{Name: "storm", Jobs: 300, Outage: 10 * time.Minute, AllAtOnce: true, Decide: every(time.Minute, 20)}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestHavePeakAtMost(t *testing.T) {
	l := storm(t)
	g := gomega.NewWithT(t)
	g.Expect(l).To(matchers.HavePeakAtMost(300))
	g.Expect(*l).To(matchers.HavePeakAtMost(1000))
	g.Expect(l).NotTo(matchers.HavePeakAtMost(299))

	m := matchers.HavePeakAtMost(100)
	if ok, err := m.Match(l); ok || err != nil {
		t.Fatalf("HavePeakAtMost(100).Match(peak 300) = %v, %v, want false, nil", ok, err)
	}
	msg := m.FailureMessage(l)
	golden.Check(t, "have_peak_at_most", msg+"\n")
	want := policysim.CheckPeakAtMost(l, 100).(*policysim.PeakError)
	if !strings.HasSuffix(msg, "to have a peak of at most 100 requests per 1m: "+want.Summary()) {
		t.Errorf("FailureMessage does not end with the check's summary %q:\n%s", want.Summary(), msg)
	}
	for line := range strings.SplitSeq(msg, "\n") {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %q has trailing space", line)
		}
	}

	m = matchers.HavePeakAtMost(300)
	if ok, err := m.Match(l); !ok || err != nil {
		t.Fatalf("HavePeakAtMost(300).Match(peak 300) = %v, %v, want true, nil", ok, err)
	}
	golden.Check(t, "have_peak_at_most_negated", m.NegatedFailureMessage(l)+"\n")

	if m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(l) {
		t.Errorf("MatchMayChangeInTheFuture(load) = true, want false: a load never changes")
	}
}

// TestHavePeakAtMostResets checks that a matcher reused on another load
// reports that load.
func TestHavePeakAtMostResets(t *testing.T) {
	m := matchers.HavePeakAtMost(100)
	if ok, _ := m.Match(storm(t)); ok {
		t.Fatal("Match(storm) = true")
	}
	quiet, err := policysim.Fleet{Name: "quiet", Jobs: 50, Decide: every(time.Minute, 2)}.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := m.Match(quiet); !ok || err != nil {
		t.Fatalf("Match(quiet) = %v, %v, want true, nil", ok, err)
	}
	if msg := m.NegatedFailureMessage(quiet); !strings.Contains(msg, "quiet: requests per 1m") || strings.Contains(msg, "storm") {
		t.Errorf("NegatedFailureMessage after a second Match =\n%s\nwant the quiet load's chart", msg)
	}
}

func TestHavePeakAtMostInputErrors(t *testing.T) {
	var nilLoad *policysim.Load
	for _, tc := range []struct {
		matcher int
		actual  any
		want    string
	}{
		{600, nil, "HavePeakAtMost matcher expects a *policysim.Load or a policysim.Load.  Got:\n    <nil>: nil"},
		{600, []int{1, 2}, "HavePeakAtMost matcher expects a *policysim.Load or a policysim.Load.  Got:\n    <[]int | len:2, cap:2>: [1, 2]"},
		{600, nilLoad, "HavePeakAtMost matcher expects a *policysim.Load that is not nil.  Got:\n    <*policysim.Load | 0x0>: nil"},
		{-1, storm(t), "HavePeakAtMost matcher: capacity -1, want >= 0"},
	} {
		ok, err := matchers.HavePeakAtMost(tc.matcher).Match(tc.actual)
		if ok || err == nil || err.Error() != tc.want {
			t.Errorf("HavePeakAtMost(%d).Match(%T) = %v, %v\nwant false, %s", tc.matcher, tc.actual, ok, err, tc.want)
		}
	}
}
