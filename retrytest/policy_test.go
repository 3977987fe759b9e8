package retrytest_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/retrytest"
)

// open is the window [lo, hi).
func open(lo, hi time.Duration) retrytest.Window {
	return retrytest.Window{Min: lo, Max: hi, Open: true}
}

func exact(ds ...time.Duration) []retrytest.Window {
	ws := make([]retrytest.Window, len(ds))
	for i, d := range ds {
		ws[i] = win(d, d)
	}
	return ws
}

func TestPolicyWindows(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name string
		got  []retrytest.Window
		want []retrytest.Window
	}{
		{"seed 003: 500ms doubling to 8s", retrytest.Policy{First: 500 * ms, Growth: 2, Cap: 8 * s, Attempts: 7}.Windows(),
			exact(500*ms, s, 2*s, 4*s, 8*s, 8*s)},
		{"no cap", retrytest.Policy{First: s, Growth: 2, Attempts: 4}.Windows(), exact(s, 2*s, 4*s)},
		{"constant", retrytest.Policy{First: s, Growth: 1, Attempts: 3}.Windows(), exact(s, s)},
		{"backoff v5 with RF 0 (retrylibs §10.3)", retrytest.Policy{First: 500 * ms, Growth: 1.5, Cap: 3 * s, Attempts: 8}.Windows(),
			exact(500*ms, 750*ms, 1125*ms, 1687500*time.Microsecond, 2531250*time.Microsecond, 3*s, 3*s)},
		{"seed 001: full jitter", retrytest.Policy{First: s, Growth: 2, Cap: 30 * s, Jitter: retrytest.FullJitter, Attempts: 5}.Windows(),
			[]retrytest.Window{win(0, s), win(0, 2*s), win(0, 4*s), win(0, 8*s)}},
		{"full jitter, half-open", retrytest.Policy{First: s, Growth: 2, Cap: 30 * s, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 3}.Windows(),
			[]retrytest.Window{open(0, s), open(0, 2*s)}},
		{"half-open leaves exact windows", retrytest.Policy{First: s, Growth: 2, OpenTop: true, Attempts: 2}.Windows(), exact(s)},
		{"equal jitter", retrytest.Policy{First: s, Growth: 2, Cap: 3 * s, Jitter: retrytest.EqualJitter, Attempts: 4}.Windows(),
			[]retrytest.Window{win(500*ms, s), win(s, 2*s), win(1500*ms, 3*s)}},
		{"randomization factor, cap before jitter", retrytest.Policy{First: s, Growth: 2, Cap: 2 * s, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 4}.Windows(),
			[]retrytest.Window{win(500*ms, 1500*ms), win(s, 3*s), win(s, 3*s)}},
		{"randomization factor, cap after jitter", retrytest.Policy{First: s, Growth: 2, Cap: 2 * s, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, CapAfterJitter: true, Attempts: 4}.Windows(),
			[]retrytest.Window{win(500*ms, 1500*ms), win(s, 2*s), win(2*s, 2*s)}},
		{"retry-go FullJitterBackoffDelay: exponent 1, cap after", retrytest.Policy{First: 100 * ms, Growth: 2, Cap: s, Jitter: retrytest.FullJitter, CapAfterJitter: true, FirstExponent: 1, Attempts: 6}.Windows(),
			[]retrytest.Window{win(0, 200*ms), win(0, 400*ms), win(0, 800*ms), win(0, s), win(0, s)}},
		{"additive jitter, cap before jitter", retrytest.Policy{First: s, Growth: 2, Cap: 2 * s, Jitter: retrytest.AddedJitter, JitterAmount: 500 * ms, Attempts: 4}.Windows(),
			[]retrytest.Window{win(s, 1500*ms), win(2*s, 2500*ms), win(2*s, 2500*ms)}},
		{"retry-go defaults: additive jitter, half-open, cap after", retrytest.Policy{First: 100 * ms, Growth: 2, Cap: 500 * ms, Jitter: retrytest.AddedJitter, JitterAmount: 100 * ms, CapAfterJitter: true, OpenTop: true, Attempts: 5}.Windows(),
			[]retrytest.Window{open(100*ms, 200*ms), open(200*ms, 300*ms), open(400*ms, 500*ms), win(500*ms, 500*ms)}},
		{"retry-go MaxDelay: the capped sum of a half-open draw reaches the cap", retrytest.Policy{First: s, Growth: 2, Cap: 1200 * ms, Jitter: retrytest.AddedJitter, JitterAmount: 500 * ms, CapAfterJitter: true, OpenTop: true, Attempts: 3}.Windows(),
			[]retrytest.Window{win(s, 1200*ms), win(1200*ms, 1200*ms)}},
		{"full jitter, half-open, cap after", retrytest.Policy{First: s, Growth: 2, Cap: 1500 * ms, Jitter: retrytest.FullJitter, CapAfterJitter: true, OpenTop: true, Attempts: 3}.Windows(),
			[]retrytest.Window{open(0, s), win(0, 1500*ms)}},
		{"absolute jitter, never below 0", retrytest.Policy{First: s, Growth: 2, Jitter: retrytest.PlusMinusJitter, JitterAmount: 1500 * ms, Attempts: 4}.Windows(),
			[]retrytest.Window{win(0, 2500*ms), win(500*ms, 3500*ms), win(2500*ms, 5500*ms)}},
		{"absolute jitter, cap after", retrytest.Policy{First: s, Growth: 2, Cap: 3 * s, Jitter: retrytest.PlusMinusJitter, JitterAmount: 500 * ms, CapAfterJitter: true, Attempts: 4}.Windows(),
			[]retrytest.Window{win(500*ms, 1500*ms), win(1500*ms, 2500*ms), win(3*s, 3*s)}},
		{"sethvargo WithJitter: half-open", retrytest.Policy{First: s, Growth: 1, Jitter: retrytest.PlusMinusJitter, JitterAmount: 100 * ms, OpenTop: true, Attempts: 2}.Windows(),
			[]retrytest.Window{open(900*ms, 1100*ms)}},
		{"zero additive jitter is exact", retrytest.Policy{First: s, Growth: 2, Jitter: retrytest.AddedJitter, JitterAmount: 0, Attempts: 3}.Windows(), exact(s, 2*s)},
		{"first exponent 1", retrytest.Policy{First: s, Growth: 2, FirstExponent: 1, Attempts: 3}.Windows(), exact(2*s, 4*s)},
		{"tolerance", retrytest.Policy{First: s, Growth: 2, Attempts: 3, Tolerance: 1}.Windows(),
			[]retrytest.Window{win(s-1, s+1), win(2*s-1, 2*s+1)}},
		{"tolerance never below 0", retrytest.Policy{First: s, Growth: 2, Jitter: retrytest.FullJitter, Attempts: 2, Tolerance: time.Millisecond}.Windows(),
			[]retrytest.Window{win(0, s+time.Millisecond)}},
		{"one attempt has no delay", retrytest.Policy{First: s, Growth: 2, Attempts: 1}.Windows(), []retrytest.Window{}},
		{"growth 0 doubles", retrytest.Policy{First: s, Attempts: 4}.Windows(), exact(s, 2*s, 4*s)},
		{"a shrinking growth", retrytest.Policy{First: 4 * s, Growth: 0.5, Attempts: 3}.Windows(), exact(4*s, 2*s)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.got, "Policy.Windows")
		})
	}
}

// TestPolicyWindow: retry k's window is the kth of Windows, and a policy
// with no attempt limit has every window but no last one.
func TestPolicyWindow(t *testing.T) {
	p := retrytest.Policy{First: time.Second, Cap: 8 * time.Second, Jitter: retrytest.EqualJitter, Attempts: 7}
	for k, w := range p.Windows() {
		if got := p.Window(k + 1); got != w {
			t.Errorf("Window(%d) = %v, want Windows()[%d] = %v", k+1, got, k, w)
		}
	}
	p.Attempts = 0
	if got, want := p.Window(100), win(4*time.Second, 8*time.Second); got != want {
		t.Errorf("Window(100) with no limit = %v, want %v", got, want)
	}
	if got, want := p.Ceiling(3), 4*time.Second; got != want {
		t.Errorf("Ceiling(3) = %v, want %v", got, want)
	}
}

func TestPolicySaturates(t *testing.T) {
	for _, j := range []retrytest.Jitter{retrytest.AddedJitter, retrytest.PlusMinusJitter} {
		ws := retrytest.Policy{First: time.Hour, Jitter: j, JitterAmount: math.MaxInt64, Attempts: 3}.Windows()
		if last := ws[len(ws)-1]; last.Min < 0 || last.Max != math.MaxInt64 {
			t.Errorf("%v jitter of MaxInt64: last window = %v, want 0 <= Min and Max saturated", j, last)
		}
	}
	ws := retrytest.Policy{First: time.Hour, Jitter: retrytest.FactorJitter, JitterFactor: 1, Attempts: 80, Tolerance: time.Second}.Windows()
	for i, w := range ws {
		if w.Min < 0 || w.Max < w.Min {
			t.Fatalf("window %d = %v, want 0 <= Min <= Max", i+1, w)
		}
	}
	if last := ws[len(ws)-1]; last.Max != math.MaxInt64 {
		t.Errorf("last window = %v, want Max saturated at %v", last, time.Duration(math.MaxInt64))
	}
}

// TestPolicyValidate: a policy that contradicts itself is an error naming
// each field and what it expects; Windows, Window, Ceiling and Decide
// panic with it.
func TestPolicyValidate(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: -1}, "retrytest: Policy: First -1ns, want a delay >= 0s"},
		{retrytest.Policy{Growth: -2}, "retrytest: Policy: Growth -2, want a number > 0 (0 means 2)"},
		{retrytest.Policy{Growth: math.NaN()}, "retrytest: Policy: Growth NaN, want a number > 0 (0 means 2)"},
		{retrytest.Policy{Growth: math.Inf(1)}, "retrytest: Policy: Growth +Inf, want a number > 0 (0 means 2)"},
		{retrytest.Policy{Cap: -time.Second}, "retrytest: Policy: Cap -1s, want a delay >= 0s (0 means no cap)"},
		{retrytest.Policy{Jitter: 9}, "retrytest: Policy: Jitter Jitter(9), want one of the Jitter constants"},
		{retrytest.Policy{Jitter: retrytest.FactorJitter, JitterFactor: 1.5}, "retrytest: Policy: JitterFactor 1.5, want a factor from 0 to 1"},
		{retrytest.Policy{JitterFactor: 0.5}, "retrytest: Policy: JitterFactor 0.5 with no jitter, want FactorJitter or DownJitter"},
		{retrytest.Policy{Jitter: retrytest.AddedJitter, JitterAmount: -time.Second}, "retrytest: Policy: JitterAmount -1s, want a delay >= 0s"},
		{retrytest.Policy{Jitter: retrytest.FullJitter, JitterAmount: time.Second}, "retrytest: Policy: JitterAmount 1s with full jitter, want AddedJitter, PlusMinusJitter or StepJitter"},
		{retrytest.Policy{Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{1.3, 0.8}}, "retrytest: Policy: JitterScale [1.3 0.8], want [a, b] with 0 <= a <= b"},
		{retrytest.Policy{Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{-0.1, 1}}, "retrytest: Policy: JitterScale [-0.1 1], want [a, b] with 0 <= a <= b"},
		{retrytest.Policy{Jitter: retrytest.FactorJitter, JitterScale: [2]float64{0.8, 1.3}}, "retrytest: Policy: JitterScale [0.8 1.3] with factor jitter, want ScaleJitter"},
		{retrytest.Policy{Floor: -time.Second}, "retrytest: Policy: Floor -1s, want a delay >= 0s (0 means none)"},
		{retrytest.Policy{First: time.Second, Ceilings: []time.Duration{time.Second}}, "retrytest: Policy: Ceilings with First 1s, Growth 0, FirstExponent 0: Ceilings replace them, want them 0"},
		{retrytest.Policy{Ceilings: []time.Duration{time.Second, -time.Second}}, "retrytest: Policy: Ceilings[1] -1s, want a delay >= 0s"},
		{retrytest.Policy{FirstExponent: -1}, "retrytest: Policy: FirstExponent -1, want 0 or more"},
		{retrytest.Policy{Attempts: -1}, "retrytest: Policy: Attempts -1, want 1 or more (0 means no limit)"},
		{retrytest.Policy{Tolerance: -time.Nanosecond}, "retrytest: Policy: Tolerance -1ns, want a delay >= 0s"},
		{retrytest.Policy{First: -1, Cap: -1}, "retrytest: Policy: First -1ns, want a delay >= 0s\nCap -1ns, want a delay >= 0s (0 means no cap)"},
	} {
		err := tc.p.Validate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v.Validate() = %v, want %q", tc.p, err, tc.want)
			continue
		}
		if got := faket.PanicText(func() { tc.p.Decide(0, retrytest.Outcome{}, rand.New(rand.NewPCG(1, 1))) }); got != tc.want+" (in Policy.Decide)" {
			t.Errorf("%+v.Decide panicked %q, want the Validate error", tc.p, got)
		}
	}
	if err := (retrytest.Policy{}).Validate(); err != nil {
		t.Errorf("the zero Policy.Validate() = %v, want nil", err)
	}
	want := "retrytest: Policy.Windows: Attempts is 0 (no limit), so the ladder has no end; set Attempts, or ask Policy.Window(k) for retry k"
	if got := faket.PanicText(func() { retrytest.Policy{First: time.Second}.Windows() }); got != want {
		t.Errorf("Windows() with no limit panicked %q, want %q", got, want)
	}
	if got := faket.PanicText(func() { retrytest.Policy{}.Window(0) }); got != "retrytest: Policy.Ceiling(0): retries count from 1" {
		t.Errorf("Window(0) panicked %q", got)
	}
}

// TestPolicyDecide: a policy's Decide draws each delay from the window of
// its retry, both ends reachable (the top only without OpenTop), and gives
// up after the last attempt.
func TestPolicyDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p := retrytest.Policy{First: 2, Growth: 1, Jitter: retrytest.FullJitter, Attempts: 4}
	for _, top := range []bool{false, true} {
		p.OpenTop = top
		seen := map[time.Duration]bool{}
		for range 1000 {
			for failed := range 3 {
				d := p.Decide(failed, retrytest.Outcome{}, rng)
				if w := p.Window(failed + 1); !d.Retry || !w.Contains(d.Delay) || d.Reason != "backoff" {
					t.Fatalf("OpenTop %v: Decide(%d) = %+v, want a retry within %v", top, failed, d, w)
				}
				seen[d.Delay] = true
			}
		}
		want := map[time.Duration]bool{0: true, 1: true, 2: true}
		if top {
			delete(want, 2) // the top is never drawn
		}
		if len(seen) != len(want) || !seen[0] || !seen[1] || seen[2] != want[2] {
			t.Errorf("OpenTop %v: drew %v, want each of %v", top, seen, want)
		}
	}
	for _, failed := range []int{3, 4, -1} {
		if d := p.Decide(failed, retrytest.Outcome{}, rng); d.Retry || d.Reason != "exhausted" {
			t.Errorf("Decide(%d) = %+v, want to give up, exhausted", failed, d)
		}
	}
	if d := (retrytest.Policy{First: time.Second}).Decide(1000, retrytest.Outcome{}, rng); !d.Retry {
		t.Errorf("Decide(1000) with no attempt limit = %+v, want a retry", d)
	}
	// The widest window draws without overflowing.
	wide := retrytest.Policy{First: math.MaxInt64, Jitter: retrytest.FullJitter}
	if d := wide.Decide(0, retrytest.Outcome{}, rng); d.Delay < 0 {
		t.Errorf("Decide over [0, MaxInt64] = %v, want a delay >= 0", d.Delay)
	}
}

// TestPolicyDecideCapAfterJitter: jitter added, then capped, lands on the
// cap whenever ceiling+jitter passes it — as the loop's own draw does, not
// as a uniform draw over the window [c, cap] would.
func TestPolicyDecideCapAfterJitter(t *testing.T) {
	p := retrytest.Policy{First: 40 * time.Second, Growth: 1, Cap: time.Minute, Jitter: retrytest.AddedJitter, JitterAmount: 40 * time.Second, CapAfterJitter: true, Attempts: 2}
	rng := rand.New(rand.NewPCG(7, 7))
	atCap := 0
	const n = 10000
	for range n {
		d := p.Decide(0, retrytest.Outcome{}, rng).Delay
		if d < 40*time.Second || d > time.Minute {
			t.Fatalf("Decide = %v, want within [40s, 1m]", d)
		}
		if d == time.Minute {
			atCap++
		}
	}
	// P(40s + U[0, 40s] >= 1m) = 1/2.
	if atCap < n*45/100 || atCap > n*55/100 {
		t.Errorf("%d of %d delays at the cap, want about half", atCap, n)
	}
}

func TestPolicyString(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}, "5s doubling, full jitter under a 1h cap, 13 attempts (12 retries)"},
		{retrytest.Policy{First: 5 * time.Second, Cap: time.Minute, Jitter: retrytest.AddedJitter, JitterAmount: 5 * time.Second, CapAfterJitter: true, Attempts: 200},
			"5s doubling, jitter [0s, 5s] added before a 1m cap, 200 attempts (199 retries)"},
		{retrytest.Policy{First: time.Second, Growth: 1, Attempts: 2}, "1s constant, no jitter, no cap, 2 attempts (1 retry)"},
		{retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: 4 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 1},
			"500ms x1.5, jitter ±50% under a 4s cap, 1 attempt (no retry)"},
		{retrytest.Policy{First: 100 * time.Millisecond, FirstExponent: 1, Cap: time.Second, Jitter: retrytest.FullJitter, CapAfterJitter: true, OpenTop: true},
			"100ms doubling from exponent 1, full jitter before a 1s cap, top excluded, no attempt limit"},
		{retrytest.Policy{First: time.Second, Cap: 8 * time.Second, Attempts: 5}, "1s doubling, no jitter, capped at 8s, 5 attempts (4 retries)"},
		// What Validate rejects is not printed as something valid (issue 23).
		{retrytest.Policy{First: time.Second, Attempts: -1}, "1s doubling, no jitter, no cap, Attempts -1 (invalid: want 1 or more, 0 for no limit)"},
		{retrytest.Policy{First: time.Second}, "1s doubling, no jitter, no cap, no attempt limit"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
