package main

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// flagged returns the policy the flags describe, failing the test if they
// are bad.
func flagged(t *testing.T, f policyFlags) retrytest.Policy {
	t.Helper()
	p, err := f.policy()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPolicyMatchesItsWindows checks, for every jitter kind of the flags,
// that the policy's delays fall in the windows the table prints, reach
// both ends, and stop after the last attempt.
func TestPolicyMatchesItsWindows(t *testing.T) {
	for _, p := range []retrytest.Policy{
		oldPolicy,
		fixedPolicy,
		flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 1.5, Cap: 10 * time.Second, Attempts: 9}, jitter: jitterEqual}),
		flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 3, Cap: 20 * time.Second, Attempts: 6}, jitter: jitterNone}),
		// The cap falls inside the added jitter of the third delay, 4s + [0, 3s].
		flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second, Attempts: 5}, jitter: jitterAdded, jitterMax: 3 * time.Second}),
		flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 2, Attempts: 4}, jitter: jitterAdded, jitterMax: time.Second}),
	} {
		ws := p.Windows()
		if len(ws) != p.Attempts-1 {
			t.Errorf("%s: %d windows, want %d", p, len(ws), p.Attempts-1)
			continue
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for failed, w := range ws[:min(len(ws), 12)] {
			lo, hi := w.Max, w.Min
			for range 2000 {
				d := p.Decide(failed, retrytest.Outcome{}, rng)
				if !d.Retry || !w.Contains(d.Delay) {
					t.Fatalf("%s: Decide(%d) = %+v, want a retry within %s", p, failed, d, w)
				}
				lo, hi = min(lo, d.Delay), max(hi, d.Delay)
			}
			if w.Max-w.Min > 0 && (lo-w.Min > (w.Max-w.Min)/50 || w.Max-hi > (w.Max-w.Min)/50) {
				t.Errorf("%s: Decide(%d) drew from %s, want both ends of %s", p, failed, schedfmt.Window(lo, hi), w)
			}
		}
		if d := p.Decide(len(ws), retrytest.Outcome{}, rng); d.Retry || d.Reason != "exhausted" {
			t.Errorf("%s: Decide(%d) = %+v, want to give up after the last attempt", p, len(ws), d)
		}
	}
}

func TestAddedJitterIsCappedAfterwards(t *testing.T) {
	p := flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second, Attempts: 5}, jitter: jitterAdded, jitterMax: 3 * time.Second})
	want := []retrytest.Window{{Min: time.Second, Max: 4 * time.Second}, {Min: 2 * time.Second, Max: 5 * time.Second}, {Min: 4 * time.Second, Max: 5 * time.Second}, {Min: 5 * time.Second, Max: 5 * time.Second}}
	got := p.Windows()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Windows() = %v, want %v", got, want)
		}
	}
	// min(5s, 4s + uniform(0, 3s)) lands on the cap two times in three.
	rng, atCap := rand.New(rand.NewPCG(3, 4)), 0
	for range 3000 {
		if p.Decide(2, retrytest.Outcome{}, rng).Delay == 5*time.Second {
			atCap++
		}
	}
	if atCap < 1800 || atCap > 2200 {
		t.Errorf("Decide(2) hit the 5s cap %d times in 3000, want about 2000", atCap)
	}
}

// TestFlagsDescribeThePolicy checks the policy each -jitter builds from the
// other flags, as the output describes it.
func TestFlagsDescribeThePolicy(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{oldPolicy, "5s doubling, jitter [0s, 5s] added before a 1m cap, 200 attempts (199 retries)"},
		{fixedPolicy, "5s doubling, full jitter under a 1h cap, 13 attempts (12 retries)"},
		{flagged(t, policyFlags{p: fixedPolicy, jitter: jitterFull, jitterMax: 5 * time.Second}), "5s doubling, full jitter under a 1h cap, 13 attempts (12 retries)"},
		{flagged(t, policyFlags{p: oldPolicy, jitter: jitterAdded, jitterMax: 5 * time.Second}), "5s doubling, jitter [0s, 5s] added before a 1m cap, 200 attempts (199 retries)"},
		{flagged(t, policyFlags{p: retrytest.Policy{First: time.Second, Growth: 1, Cap: time.Minute, Attempts: 1}, jitter: jitterEqual}), "1s constant, equal jitter under a 1m cap, 1 attempt (no retry)"},
		{flagged(t, policyFlags{p: retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Attempts: 2}, jitter: jitterNone, jitterMax: time.Second}), "500ms x1.5, no jitter, no cap, 2 attempts (1 retry)"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	// The flags' defaults are the fixed policy, and -jitter added is the
	// old policy's jitter, capped after.
	if got := flagged(t, policyFlags{p: fixedPolicy, jitter: jitterFull, jitterMax: 5 * time.Second}); !reflect.DeepEqual(got, fixedPolicy) {
		t.Errorf("the default flags give %#v, want fixedPolicy %#v", got, fixedPolicy)
	}
	if got := flagged(t, policyFlags{p: retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Minute, Attempts: 200}, jitter: jitterAdded, jitterMax: 5 * time.Second}); !reflect.DeepEqual(got, oldPolicy) {
		t.Errorf("-cap 1m -attempts 200 -jitter added give %#v, want oldPolicy %#v", got, oldPolicy)
	}
}
