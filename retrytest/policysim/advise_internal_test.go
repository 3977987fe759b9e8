package policysim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// TestRungsDrawAsDecide checks that a rung draws the delay Policy.Decide
// draws for its retry, from the same generator state, for every jitter,
// an open top, a cap before or after the jitter.
func TestRungsDrawAsDecide(t *testing.T) {
	for _, p := range []retrytest.Policy{
		{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter},
		{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, OpenTop: true},
		{First: 100 * time.Millisecond, Growth: 1.5, Cap: 2 * time.Second, Jitter: retrytest.EqualJitter},
		{First: time.Second, Growth: 3, Cap: 10 * time.Second, Jitter: retrytest.NoJitter},
		{First: time.Second, Growth: 2, Cap: 20 * time.Second, Jitter: retrytest.FullJitter, CapAfterJitter: true, FirstExponent: 1},
		{First: time.Second, Growth: 2, Cap: 20 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5},
		{First: 5 * time.Second, Cap: time.Minute, Jitter: retrytest.AddedJitter, JitterAmount: 5 * time.Second, CapAfterJitter: true},
		{First: time.Second, Cap: 8 * time.Second, Jitter: retrytest.PlusMinusJitter, JitterAmount: 2 * time.Second},
		{First: time.Nanosecond, Jitter: retrytest.EqualJitter}, // c/2 is 0: a draw from [0, 1ns]
		// The forms of real code: a jitter that grows with the retry
		// (asynq), drawn down from the ceiling (openai-go, stripe-go), a
		// scale (azcore), a floor (stripe-go, resty).
		{First: 15 * time.Second, Growth: 3, Cap: time.Hour, Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second},
		{First: 500 * time.Millisecond, Cap: 8 * time.Second, Jitter: retrytest.DownJitter, JitterFactor: 0.25},
		{First: 800 * time.Millisecond, Cap: time.Minute, Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, OpenTop: true, CapAfterJitter: true},
		{First: 100 * time.Millisecond, Cap: 2 * time.Second, Jitter: retrytest.EqualJitter, OpenTop: true, Floor: 150 * time.Millisecond},
	} {
		rs := rungs(p, 12)
		want, got := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
		for range 50 {
			for k := range rs {
				w := p.Decide(k, retrytest.Outcome{}, want).Delay
				if g := rs[k].draw(got); g != w {
					t.Fatalf("%v: retry %d: rung drew %v, Decide %v", p, k+1, g, w)
				}
			}
		}
	}
}

// TestWeighMatchesSimulate checks that weighing a policy with every
// attempt count at once gives, for each count, the peak, drain and jobs
// given up of Fleet.Simulate.
func TestWeighMatchesSimulate(t *testing.T) {
	fleets := []Fleet{
		{Jobs: 1000, Outage: 2 * time.Hour, Seed: 7, Capacity: 600},
		{Jobs: 500, Outage: 10 * time.Minute, AllAtOnce: true, Seed: 3, Capacity: 100, Bucket: 10 * time.Second},
		{Jobs: 50, Outage: 0, Seed: 1, Capacity: 100},
		// Uncapped, 40 attempts from 1s doubling arrive after 2^39s,
		// beyond MaxBuckets of a minute: those counts are not weighed.
		{Jobs: 200, Outage: 24 * time.Hour, Seed: 5, Capacity: 100},
	}
	policies := []retrytest.Policy{
		{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
		{First: 5 * time.Second, Growth: 2, Cap: time.Minute, Jitter: retrytest.AddedJitter, JitterAmount: 5 * time.Second, CapAfterJitter: true, Attempts: 30},
		{First: time.Second, Growth: 3, Cap: 10 * time.Minute, Jitter: retrytest.EqualJitter, Attempts: 6, OpenTop: true},
		{First: time.Second, Jitter: retrytest.NoJitter, Attempts: 20},
		// asynq's default, a table of ceilings and a jitter that grows
		// with the retry, and a floor.
		{Ceilings: []time.Duration{15 * time.Second, 16 * time.Second, 31 * time.Second, 96 * time.Second, 271 * time.Second}, Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second, Attempts: 8},
		{First: 100 * time.Millisecond, Cap: 2 * time.Second, Jitter: retrytest.EqualJitter, OpenTop: true, Floor: 150 * time.Millisecond, Attempts: 10},
	}
	for _, f := range fleets {
		for _, p := range policies {
			a, err := newAdvisor(f, p, Search{})
			if err != nil {
				t.Fatal(err)
			}
			a.maxGave, a.peak = f.Jobs, f.Capacity
			a.jobs = newJobStarts(a.f)
			w := newWeigher(a)
			w.weigh(shape{policy: p})
			for A := 1; A <= a.amax; A++ {
				q := p
				q.Attempts = A
				g := f
				g.Decide = q.Decide
				l, err := g.Simulate()
				if (err != nil) != (A >= w.late) {
					t.Fatalf("%v on %d jobs, outage %v: weighed too late from %d attempts; simulated: %v", q, f.Jobs, f.Outage, w.late, err)
				}
				if err != nil {
					continue
				}
				if w.peak[A] != l.Peak || w.gave[A] != l.GaveUp || w.drain[A] != l.DrainTime {
					t.Errorf("%v on %d jobs, outage %v: weighed peak %d, %d gave up, drain %v; simulated %s",
						q, f.Jobs, f.Outage, w.peak[A], w.gave[A], w.drain[A], l.Summary())
				}
			}
		}
	}
}
