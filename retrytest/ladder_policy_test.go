package retrytest_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

func TestLadderPolicy(t *testing.T) {
	ws := []retrytest.Window{{Min: 1, Max: 3}, {Min: 5 * time.Second, Max: 5 * time.Second}, {Max: time.Hour}}
	p := retrytest.LadderPolicy(ws...)
	ws[1].Max = 0 // the policy keeps its own copy
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[time.Duration]bool{}
	for range 1000 {
		d := p(0, rng)
		if !d.Retry || d.Delay < 1 || d.Delay > 3 || d.Reason != "backoff" {
			t.Fatalf("policy(0) = %+v, want a retry after 1ns to 3ns", d)
		}
		seen[d.Delay] = true
		if d := p(1, rng); d.Delay != 5*time.Second {
			t.Fatalf("policy(1) = %+v, want a retry after 5s", d)
		}
		if d := p(2, rng); d.Delay < 0 || d.Delay > time.Hour {
			t.Fatalf("policy(2) = %+v, want a retry within [0s, 1h]", d)
		}
	}
	if len(seen) != 3 {
		t.Errorf("policy(0) drew %v, want each of 1ns, 2ns and 3ns", seen)
	}
	for _, failed := range []int{3, 4, -1} {
		if d := p(failed, rng); d.Retry || d.Reason != "exhausted" {
			t.Errorf("policy(%d) = %+v, want to give up, exhausted", failed, d)
		}
	}
	// The widest window draws without overflowing.
	wide := retrytest.LadderPolicy(retrytest.Window{Max: math.MaxInt64})
	if d := wide(0, rng); d.Delay < 0 {
		t.Errorf("policy over [0, MaxInt64] = %v, want a delay >= 0", d.Delay)
	}
}

func TestLadderPolicyPanics(t *testing.T) {
	for _, tc := range []struct {
		windows []retrytest.Window
		want    string
	}{
		{[]retrytest.Window{{Max: time.Second}, {Min: 5 * time.Second, Max: time.Second}}, "retrytest: LadderPolicy: window 2 of 2 is [5s, 1s], want 0s <= Min <= Max"},
		{[]retrytest.Window{{Min: -time.Second, Max: time.Second}}, "retrytest: LadderPolicy: window 1 of 1 is [-1s, 1s], want 0s <= Min <= Max"},
	} {
		got := func() (msg any) {
			defer func() { msg = recover() }()
			retrytest.LadderPolicy(tc.windows...)
			return nil
		}()
		if got != tc.want {
			t.Errorf("LadderPolicy(%v) panicked with %v, want %q", tc.windows, got, tc.want)
		}
	}
}
