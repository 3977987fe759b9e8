package retrytest_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The policy forms real clients ship that a geometric First·Growth^k
// cannot state (issue 24), each as the client's own ladder: windows taken
// by hand from the client's code, cited, so that a bug in Window fails
// here, and draws that stay in them at both edges of the source.

func w(lo, hi time.Duration) retrytest.Window { return retrytest.Window{Min: lo, Max: hi} }
func wOpen(lo, hi time.Duration) retrytest.Window {
	return retrytest.Window{Min: lo, Max: hi, Open: true}
}

// ceilings is a table of ceilings for retries 1…n from f.
func ceilings(n int, f func(k int) time.Duration) []time.Duration {
	var cs []time.Duration
	for k := 1; k <= n; k++ {
		cs = append(cs, f(k))
	}
	return cs
}

func TestPolicyForms(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	for _, tc := range []struct {
		name string
		p    retrytest.Policy
		want []retrytest.Window
	}{
		{
			// openai-go v3.98.0 internal/requestconfig/requestconfig.go:567-577:
			// min(0.5s·2^k, 8s) − rand.Int63n(c/4): (0.75c, c], the cap
			// before the jitter. Windows keep the unreachable bottom
			// nanosecond.
			name: "openai-go: down-only factor jitter",
			p:    retrytest.Policy{First: 500 * ms, Cap: 8 * s, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 7},
			want: []retrytest.Window{w(375*ms, 500*ms), w(750*ms, s), w(1500*ms, 2*s), w(3*s, 4*s), w(6*s, 8*s), w(6*s, 8*s)},
		},
		{
			// stripe-go v82.5.1 stripe.go:1105-1119: 500ms + 500ms·k²
			// (k from 0), capped at 5s, minus rand.Int63n(c/4), then
			// raised to 500ms: the first retry is exactly 500ms.
			name: "stripe-go: quadratic ceilings, down jitter, a floor after it",
			p: retrytest.Policy{Ceilings: ceilings(5, func(k int) time.Duration { return 500*ms + 500*ms*time.Duration((k-1)*(k-1)) }),
				Cap: 5 * s, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Floor: 500 * ms, Attempts: 6},
			want: []retrytest.Window{w(500*ms, 500*ms), w(750*ms, s), w(1875*ms, 2500*ms), w(3750*ms, 5*s), w(3750*ms, 5*s)},
		},
		{
			// azcore v1.24.0 runtime/policy_retry.go:59-88: (2^t − 1)·800ms
			// for try t from 1, times rand.Float64()/2 + 0.8, [0.8, 1.3),
			// then capped at 60s.
			name: "azcore: (2^t−1)·d ceilings, scale jitter, cap after",
			p: retrytest.Policy{Ceilings: ceilings(7, func(k int) time.Duration { return time.Duration(1<<k-1) * 800 * ms }),
				Cap: 60 * s, CapAfterJitter: true, Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, OpenTop: true, Attempts: 8},
			want: []retrytest.Window{wOpen(640*ms, 1040*ms), wOpen(1920*ms, 3120*ms), wOpen(4480*ms, 7280*ms), wOpen(9600*ms, 15600*ms),
				wOpen(19840*ms, 32240*ms), w(40320*ms, 60*s), w(60*s, 60*s)},
		},
		{
			// River v0.51.2 internal/retrypolicy/default.go:37-105:
			// e⁴ seconds for e errors so far, ±10% from rand.Float64.
			name: "River: n⁴ s ceilings ±10%",
			p: retrytest.Policy{Ceilings: ceilings(24, func(k int) time.Duration { return time.Duration(k*k*k*k) * s }),
				Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 25},
			want: []retrytest.Window{wOpen(900*ms, 1100*ms), wOpen(14400*ms, 17600*ms), wOpen(72900*ms, 89100*ms), wOpen(230400*ms, 281600*ms)},
		},
		{
			// asynq v0.26.0 server.go:399-405: n⁴ + 15 + rand.IntN(30)·(n+1)
			// seconds, n the retries so far (0 first): retry k = n+1
			// adds up to 29·k seconds.
			name: "asynq: n⁴+15 s ceilings, a step jitter growing with the retry",
			p: retrytest.Policy{Ceilings: ceilings(25, func(k int) time.Duration { n := k - 1; return time.Duration(n*n*n*n+15) * s }),
				Jitter: retrytest.StepJitter, JitterAmount: 29 * s, Attempts: 26},
			want: []retrytest.Window{w(15*s, 44*s), w(16*s, 74*s), w(31*s, 118*s), w(96*s, 212*s)},
		},
		{
			// resty v2.17.2 retry.go:209-237: min(2s, 100ms·2^k) halved plus
			// rnd.Int63n(c/2), [c/2, c), then raised to the 100ms wait.
			name: "resty: equal jitter, open top, a floor after it",
			p:    retrytest.Policy{First: 100 * ms, Cap: 2 * s, Jitter: retrytest.EqualJitter, OpenTop: true, Floor: 100 * ms, Attempts: 8},
			want: []retrytest.Window{w(100*ms, 100*ms), wOpen(100*ms, 200*ms), wOpen(200*ms, 400*ms), wOpen(400*ms, 800*ms), wOpen(800*ms, 1600*ms), wOpen(s, 2*s), wOpen(s, 2*s)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Validate(); err != nil {
				t.Fatal(err)
			}
			got := tc.p.Windows()[:len(tc.want)]
			if !slices.Equal(got, tc.want) {
				t.Errorf("Windows() = %v\nwant        %v", got, tc.want)
			}
			// Draws at both edges of the source, and many seeded ones,
			// stay in their windows.
			for _, rng := range []*rand.Rand{rand.New(seqrand.Min()), rand.New(seqrand.Max())} {
				for k := range len(tc.want) {
					if d := tc.p.Decide(k, retrytest.Outcome{}, rng); !d.Retry || !tc.want[k].Contains(d.Delay) {
						t.Errorf("retry %d: Decide = %v %s, want a retry within %s", k+1, d, d.Delay, tc.want[k])
					}
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for range 200 {
				for k := range len(tc.want) {
					if d := tc.p.Decide(k, retrytest.Outcome{}, rng); !tc.want[k].Contains(d.Delay) {
						t.Fatalf("retry %d: a seeded draw %s is outside %s", k+1, d.Delay, tc.want[k])
					}
				}
			}
		})
	}
}

// DownJitter draws down from the ceiling: the smallest draw (r = 0) is the
// ceiling itself, the largest just above c·(1−f), as openai-go's
// c − rand.Int63n(c/4) does.
func TestDownJitterDirection(t *testing.T) {
	p := retrytest.Policy{First: 400 * time.Millisecond, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 2}
	if d := p.Decide(0, retrytest.Outcome{}, rand.New(seqrand.Min())); d.Delay != 400*time.Millisecond {
		t.Errorf("at r = 0: %s, want the 400ms ceiling", d.Delay)
	}
	if d := p.Decide(0, retrytest.Outcome{}, rand.New(seqrand.Max())); d.Delay != 300*time.Millisecond+time.Nanosecond {
		t.Errorf("at r → 1: %s, want 300.000001ms, a nanosecond above c·(1−f)", d.Delay)
	}
}

func TestPolicyFormsString(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: 500 * time.Millisecond, Cap: 8 * time.Second, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 3},
			"500ms doubling, jitter down to -25% under a 8s cap, 3 attempts (2 retries)"},
		{retrytest.Policy{Ceilings: []time.Duration{500 * time.Millisecond, time.Second, 2500 * time.Millisecond}, Cap: 5 * time.Second, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Floor: 500 * time.Millisecond, Attempts: 3},
			"ceilings 500ms, 1s, 2.5s (3, the last repeating), jitter down to -25% under a 5s cap, at least 500ms, 3 attempts (2 retries)"},
		{retrytest.Policy{Ceilings: ceilings(24, func(k int) time.Duration { return time.Duration(k*k*k*k) * time.Second }), Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 25},
			"ceilings 1s, 16s, 1m21s, …, 92h9m36s (24, the last repeating), jitter ±10%, no cap, top excluded, 25 attempts (24 retries)"},
		{retrytest.Policy{Ceilings: []time.Duration{800 * time.Millisecond}, Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, Cap: time.Minute, CapAfterJitter: true, Attempts: 4},
			"ceilings 800ms (1, the last repeating), jitter ×[0.8, 1.3] before a 1m cap, 4 attempts (3 retries)"},
		{retrytest.Policy{Ceilings: []time.Duration{15 * time.Second}, Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second, Attempts: 26},
			"ceilings 15s (1, the last repeating), jitter [0s, k·29s] added at retry k, no cap, 26 attempts (25 retries)"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q\nwant       %q", got, tc.want)
		}
	}
}
