package main

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// TestLadderPolicyMatchesItsWindows checks, for every jitter kind, that the
// policy's delays fall in the windows the table prints, reach both ends,
// and stop after the last attempt.
func TestLadderPolicyMatchesItsWindows(t *testing.T) {
	for _, l := range []ladder{
		oldLadder,
		fixedLadder,
		{base: time.Second, factor: 1.5, cap: 10 * time.Second, attempts: 9, jitter: jitterEqual},
		{base: time.Second, factor: 3, cap: 20 * time.Second, attempts: 6, jitter: jitterNone},
		// The cap falls inside the added jitter of the third delay, 4s + [0, 3s].
		{base: time.Second, factor: 2, cap: 5 * time.Second, attempts: 5, jitter: jitterAdded, jitterMax: 3 * time.Second},
		{base: time.Second, factor: 2, attempts: 4, jitter: jitterAdded, jitterMax: time.Second},
	} {
		ws, p := l.windows(), l.policy()
		if len(ws) != l.attempts-1 {
			t.Errorf("%s: %d windows, want %d", l, len(ws), l.attempts-1)
			continue
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for failed, w := range ws[:min(len(ws), 12)] {
			lo, hi := w.Max, w.Min
			for range 2000 {
				d := p(failed, rng)
				if !d.Retry || !w.Contains(d.Delay) {
					t.Fatalf("%s: policy(%d) = %+v, want a retry within %s", l, failed, d, w)
				}
				lo, hi = min(lo, d.Delay), max(hi, d.Delay)
			}
			if w.Max-w.Min > 0 && (lo-w.Min > (w.Max-w.Min)/50 || w.Max-hi > (w.Max-w.Min)/50) {
				t.Errorf("%s: policy(%d) drew from %s, want both ends of %s", l, failed, schedfmt.Window(lo, hi), w)
			}
		}
		if d := p(len(ws), rng); d.Retry || d.Reason != "exhausted" {
			t.Errorf("%s: policy(%d) = %+v, want to give up after the last attempt", l, len(ws), d)
		}
	}
}

func TestLadderAddedJitterIsCappedAfterwards(t *testing.T) {
	l := ladder{base: time.Second, factor: 2, cap: 5 * time.Second, attempts: 5, jitter: jitterAdded, jitterMax: 3 * time.Second}
	want := []retrytest.Window{{Min: time.Second, Max: 4 * time.Second}, {Min: 2 * time.Second, Max: 5 * time.Second}, {Min: 4 * time.Second, Max: 5 * time.Second}, {Min: 5 * time.Second, Max: 5 * time.Second}}
	got := l.windows()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("windows() = %v, want %v", got, want)
		}
	}
	// min(5s, 4s + uniform(0, 3s)) lands on the cap two times in three.
	p, rng, atCap := l.policy(), rand.New(rand.NewPCG(3, 4)), 0
	for range 3000 {
		if p(2, rng).Delay == 5*time.Second {
			atCap++
		}
	}
	if atCap < 1800 || atCap > 2200 {
		t.Errorf("policy(2) hit the 5s cap %d times in 3000, want about 2000", atCap)
	}
}

func TestLadderString(t *testing.T) {
	for _, tc := range []struct {
		l    ladder
		want string
	}{
		{oldLadder, "5s doubling, jitter [0s, 5s] added before a 1m cap, 200 attempts (199 retries)"},
		{fixedLadder, "5s doubling, full jitter under a 1h cap, 13 attempts (12 retries)"},
		{ladder{base: time.Second, factor: 1, cap: time.Minute, attempts: 1, jitter: jitterEqual}, "1s constant, equal jitter under a 1m cap, 1 attempt (no retry)"},
		{ladder{base: 500 * time.Millisecond, factor: 1.5, attempts: 2, jitter: jitterNone}, "500ms x1.5, no jitter, no cap, 2 attempts (1 retry)"},
	} {
		if got := tc.l.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
