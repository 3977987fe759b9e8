package policysim

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// jobStarts holds each job's first attempt and its generator just after
// drawing it, as Fleet.Simulate draws them, for every policy Advise
// weighs.
type jobStarts struct {
	at  []time.Duration
	pcg []rand.PCG
}

func newJobStarts(f Fleet) *jobStarts {
	js := &jobStarts{at: make([]time.Duration, f.Jobs), pcg: make([]rand.PCG, f.Jobs)}
	s := &fleetSim{f: f}
	s.rng = rand.New(&s.pcg)
	for j := range f.Jobs {
		js.at[j] = s.start(j)
		js.pcg[j] = s.pcg
	}
	return js
}

// rung is how a policy draws the delay before one retry, worked out once:
// lo + rng.Uint64N(n) (exactly lo when n is 0), then at most max, then
// at least floor, as Policy.Decide draws it; or Decide itself, for the
// other jitters.
type rung struct {
	lo     time.Duration
	n      uint64
	max    time.Duration
	floor  time.Duration
	decide retrytest.DecideFunc
}

// rungs returns the rungs of p's retries 1 to n.
func rungs(p retrytest.Policy, n int) []rung {
	rs := make([]rung, n)
	for k := range rs {
		c := p.Ceiling(k + 1)
		r := rung{max: math.MaxInt64, floor: p.Floor}
		switch p.Jitter {
		case retrytest.NoJitter:
			r.lo = c
		case retrytest.FullJitter, retrytest.EqualJitter:
			if p.Jitter == retrytest.EqualJitter {
				r.lo = c / 2
			}
			if c > r.lo {
				r.n = uint64(c - r.lo)
				if !p.OpenTop {
					r.n++
				}
			}
		default:
			// The same policy from retry k on: its first ceiling is c,
			// and a jitter that grows with the retry (StepJitter) has
			// grown k+1 times.
			q := p
			q.First, q.Ceilings, q.Growth, q.FirstExponent, q.Attempts = c, nil, 1, 0, 0
			if p.Jitter == retrytest.StepJitter {
				q.JitterAmount = math.MaxInt64
				if p.JitterAmount <= math.MaxInt64/time.Duration(k+1) {
					q.JitterAmount = p.JitterAmount * time.Duration(k+1)
				}
			}
			r.decide = q.Decide
		}
		if p.Cap > 0 && p.CapAfterJitter {
			r.max = p.Cap
		}
		rs[k] = r
	}
	return rs
}

func (r *rung) draw(rng *rand.Rand) time.Duration {
	if r.decide != nil {
		return r.decide(0, transient(0), rng).Delay
	}
	d := r.lo
	if r.n > 0 {
		d += time.Duration(rng.Uint64N(r.n))
	}
	return max(min(d, r.max), r.floor)
}

// weigher weighs shapes with its own scratch space.
type weigher struct {
	a     *advisor
	pcg   rand.PCG
	rng   *rand.Rand
	need  []int32         // the attempts each job needs, amax+1 for more
	off   []time.Duration // when its last attempt lands after recovery
	byN   [][]int32       // the jobs by the attempts they need
	hist  []int32
	peak  []int // by attempt count
	gave  []int
	drain []time.Duration
	late  int // the least attempt count under which a job arrives too late
}

func newWeigher(a *advisor) *weigher {
	n := a.amax + 2
	w := &weigher{
		a: a, need: make([]int32, a.f.Jobs), off: make([]time.Duration, a.f.Jobs),
		byN: make([][]int32, n), peak: make([]int, n), gave: make([]int, n), drain: make([]time.Duration, n),
	}
	w.rng = rand.New(&w.pcg)
	return w
}

// weigh simulates shape s with every attempt count from 1 to amax at once,
// and returns the candidate it gives, if any, else its nearest miss.
//
// A job needs the same attempts to reach recovery whatever the limit, as
// long as the limit allows them: its draws do not depend on the limit.
// So one simulation of the jobs, each until it recovers or makes amax
// attempts, gives the load under every limit: a job recovers under limit
// A if it needs at most A attempts, and gives up otherwise. The peak grows
// with A and the jobs given up shrink, so the attempt counts that meet
// the limits are one run, [lo, hi]; the candidate takes the count nearest
// the base's.
func (w *weigher) weigh(s shape) (c candidate, ok bool, miss candidate, missed bool) {
	a, f := w.a, w.a.f
	rs := rungs(s.policy, a.amax-1)
	late := a.amax + 1 // the least need of a job that arrives too late
	maxBucket := -1
	for i := range w.byN {
		w.byN[i] = w.byN[i][:0]
	}
	for j := range f.Jobs {
		w.pcg = a.jobs.pcg[j]
		t, made := a.jobs.at[j], 0
		need := a.amax + 1
		for t < f.Outage {
			made++
			if made >= a.amax {
				break
			}
			d := rs[made-1].draw(w.rng)
			if d > math.MaxInt64-t {
				t = math.MaxInt64
				break
			}
			t += d
		}
		if t >= f.Outage && made < a.amax {
			need = made + 1
			off := t - f.Outage
			if k := int64(off / f.Bucket); t == math.MaxInt64 || k >= MaxBuckets {
				late = min(late, need)
			} else {
				maxBucket = max(maxBucket, int(k))
			}
			w.off[j] = off
		}
		w.need[j] = int32(need)
		w.byN[need] = append(w.byN[need], int32(j))
	}

	// The load under each attempt limit A, A growing.
	w.hist = slices.Grow(w.hist[:0], maxBucket+1)[:maxBucket+1]
	clear(w.hist)
	peak, recovered := 0, 0
	var drain time.Duration
	for A := 1; A <= a.amax; A++ {
		for _, j := range w.byN[A] {
			if A < late {
				k := w.off[j] / f.Bucket
				w.hist[k]++
				peak = max(peak, int(w.hist[k]))
				drain = max(drain, w.off[j])
			}
			recovered++
		}
		w.peak[A], w.gave[A], w.drain[A] = peak, f.Jobs-recovered, drain
	}

	w.late = late
	lo, hi := 1, min(a.amax, late-1) // the attempt counts that meet both limits
	if a.keep&DimAttempts != 0 {
		lo, hi = a.base.Attempts, min(hi, a.base.Attempts)
	}
	if lo > hi {
		return c, false, miss, false // every job that recovers arrives too late
	}
	most := hi
	for lo <= hi && w.gave[lo] > a.maxGave {
		lo++
	}
	for hi >= lo && w.peak[hi] > a.peak {
		hi--
	}
	at := func(A int) candidate {
		p := s.policy
		p.Attempts = A
		changed := s.changed
		if A != a.base.Attempts {
			changed |= DimAttempts
		}
		return candidate{policy: p, changed: changed, peak: w.peak[A], gaveUp: w.gave[A], drain: w.drain[A], order: s.order}
	}
	if lo > hi {
		// The nearest miss: the fewest attempts that meet the limit on
		// jobs given up, else the most attempts.
		return c, false, at(min(lo, most)), true
	}
	return at(min(max(a.base.Attempts, lo), hi)), true, miss, false
}
