package conformance

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retrytest"
)

// policyLoop is a loop that waits what p decides, drawing from the
// suite's source: the reference implementation of any Policy, so that a
// Spec of p holds for it, and a Spec of p holds a bug planted in q, the
// policy it really follows, to p.
func policyLoop(q retrytest.Policy) func(Seams) Loop {
	return func(s Seams) Loop {
		rng := rand.New(s.Rand)
		return func(ctx context.Context, op func(context.Context) error) error {
			for k := 0; ; k++ {
				err := op(ctx)
				if err == nil {
					return nil
				}
				d := q.Decide(k, retrytest.Outcome{}, rng)
				if !d.Retry {
					return err
				}
				if err := clockctx.Sleep(ctx, s.Clock, d.Delay); err != nil {
					return err
				}
			}
		}
	}
}

func tableOf(n int, f func(k int) time.Duration) []time.Duration {
	var cs []time.Duration
	for k := 1; k <= n; k++ {
		cs = append(cs, f(k))
	}
	return cs
}

// Every policy form of issue 24, as the client that ships it declares
// it, holds for the reference loop, and the one-line bug of each form
// fails the properties named for it.
func TestPolicyFormsConform(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	openai := retrytest.Policy{First: 500 * ms, Cap: 8 * s, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 6}
	stripe := retrytest.Policy{Ceilings: tableOf(4, func(k int) time.Duration { return 500*ms + 500*ms*time.Duration((k-1)*(k-1)) }),
		Cap: 5 * s, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Floor: 500 * ms, Attempts: 6}
	azcore := retrytest.Policy{Ceilings: tableOf(7, func(k int) time.Duration { return time.Duration(1<<k-1) * 800 * ms }),
		Cap: 60 * s, CapAfterJitter: true, Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, OpenTop: true, Attempts: 8}
	river := retrytest.Policy{Ceilings: tableOf(24, func(k int) time.Duration { return time.Duration(k*k*k*k) * s }),
		Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 25}
	asynq := retrytest.Policy{Ceilings: tableOf(25, func(k int) time.Duration { n := k - 1; return time.Duration(n*n*n*n+15) * s }),
		Jitter: retrytest.StepJitter, JitterAmount: 29 * s, Attempts: 26}
	resty := retrytest.Policy{First: 100 * ms, Cap: 2 * s, Jitter: retrytest.EqualJitter, OpenTop: true, Floor: 100 * ms, Attempts: 8}

	with := func(p retrytest.Policy, f func(*retrytest.Policy)) retrytest.Policy { f(&p); return p }
	for _, tc := range []struct {
		name  string
		p, q  retrytest.Policy // declared, followed
		fails []string
	}{
		{"openai-go", openai, openai, nil},
		{"openai-go, jitter drawn up as well as down", openai, with(openai, func(p *retrytest.Policy) { p.Jitter = retrytest.FactorJitter }),
			[]string{"WaitsInWindows", "JitterFromSource", "CapReached", "NoSpikeAtCap"}},
		{"stripe-go", stripe, stripe, nil},
		{"stripe-go, the floor dropped", stripe, with(stripe, func(p *retrytest.Policy) { p.Floor = 0 }), []string{"WaitsInWindows", "JitterFromSource"}},
		// azcore caps after the jitter, and from the cap on every wait is
		// exactly 60s: a fleet retries in the same instant. Declaring it
		// does not make it right: NoSpikeAtCap is azcore's own gap.
		{"azcore", azcore, azcore, []string{"NoSpikeAtCap"}},
		{"azcore, the ceilings a retry late", azcore, with(azcore, func(p *retrytest.Policy) { p.Ceilings = p.Ceilings[1:] }),
			[]string{"WaitsInWindows", "JitterFromSource", "NoSpikeAtCap"}},
		{"azcore, the scale's bottom too low", azcore, with(azcore, func(p *retrytest.Policy) { p.JitterScale[0] = 0.7 }),
			[]string{"WaitsInWindows", "JitterFromSource", "NoSpikeAtCap"}},
		{"River", river, river, nil},
		{"asynq", asynq, asynq, nil},
		{"asynq, the step not grown with the retry", asynq, with(asynq, func(p *retrytest.Policy) { p.Jitter = retrytest.AddedJitter }),
			[]string{"JitterFromSource"}},
		{"resty", resty, resty, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := CheckLoop(Spec{Policy: tc.p}, policyLoop(tc.q), inBubbles(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Failed(); !slices.Equal(got, tc.fails) {
				t.Errorf("failed %v, want %v\n%s", got, tc.fails, r)
			}
		})
	}
}
