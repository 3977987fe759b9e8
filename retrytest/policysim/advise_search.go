package policysim

import (
	"iter"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// The grid of Advise around a base policy.
var (
	firstScales = []float64{0.25, 0.5, 2, 3, 4, 6, 12}
	growths     = []float64{1.5, 2, 2.5, 3, 4}
	capScales   = []float64{0.25, 0.5, 2, 3, 4, 6}
	// outageScales give the caps to try when the base policy has none.
	outageScales = []float64{0.5, 1, 2}
	jitters      = []retrytest.Jitter{retrytest.FullJitter, retrytest.EqualJitter}
)

// shape is a policy to weigh with every attempt count: the base policy
// with the changed dimensions set otherwise.
type shape struct {
	policy  retrytest.Policy
	changed Dims
	order   int
}

// setting sets one dimension of a policy to one of its grid values.
type setting func(*retrytest.Policy)

// grid returns the settings of dimension d around the base policy, each
// giving a policy that differs from base in d.
func (a *advisor) grid(d Dims) []setting {
	b := a.centre
	var out []setting
	switch d {
	case DimFirst:
		for _, x := range scaled(b.First, firstScales) {
			out = append(out, func(p *retrytest.Policy) { p.First = x })
		}
	case DimGrowth:
		g := b.Growth
		if g == 0 {
			g = 2
		}
		for _, x := range growths {
			if x != g {
				out = append(out, func(p *retrytest.Policy) { p.Growth = x })
			}
		}
	case DimCap:
		caps := scaled(b.Cap, capScales)
		if b.Cap == 0 {
			caps = scaled(max(a.f.Outage, time.Minute), outageScales)
		}
		for _, x := range caps {
			if x != b.Cap {
				out = append(out, func(p *retrytest.Policy) { p.Cap = x })
			}
		}
	case DimJitter:
		for _, j := range jitters {
			if b.Jitter != j || b.JitterFactor != 0 || b.JitterAmount != 0 || b.CapAfterJitter {
				out = append(out, func(p *retrytest.Policy) {
					p.Jitter, p.JitterFactor, p.JitterAmount, p.CapAfterJitter = j, 0, 0, false
				})
			}
		}
	}
	return out
}

// scaled returns d times each scale, truncated to the millisecond (the
// nanosecond below one), without repeats or d itself.
func scaled(d time.Duration, scales []float64) []time.Duration {
	var out []time.Duration
	for _, s := range scales {
		x := time.Duration(float64(d) * s)
		if x >= time.Millisecond {
			x = x.Truncate(time.Millisecond)
		}
		if x > 0 && x != d && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// levels yields, for n = 0, 1, 2, ..., the shapes that change n of the
// dimensions searched (First, Growth, Cap, Jitter), every combination of
// their grid values, in a fixed order. Level 0 is the base policy, whose
// attempt count alone may change; it is left out when Attempts is kept.
func (a *advisor) levels() iter.Seq2[int, []shape] {
	var dims []Dims
	grids := map[Dims][]setting{}
	for _, d := range []Dims{DimFirst, DimGrowth, DimCap, DimJitter} {
		if a.keep&d == 0 {
			if g := a.grid(d); len(g) > 0 {
				dims = append(dims, d)
				grids[d] = g
			}
		}
	}
	return func(yield func(int, []shape) bool) {
		order := 0
		for n := 0; n <= len(dims); n++ {
			if n == 0 && a.keep&DimAttempts != 0 {
				continue
			}
			var shapes []shape
			for subset := range subsets(dims, n) {
				var changed Dims
				for _, d := range subset {
					changed |= d
				}
				for p := range a.product(subset, grids) {
					if p.Cap > 0 && p.First > p.Cap && changed&(DimFirst|DimCap) != 0 {
						continue // a ladder that starts above its cap
					}
					shapes = append(shapes, shape{policy: p, changed: changed, order: order})
					order++
				}
			}
			if !yield(n, shapes) {
				return
			}
		}
	}
}

// subsets yields the subsets of n elements of dims, in order.
func subsets(dims []Dims, n int) iter.Seq[[]Dims] {
	return func(yield func([]Dims) bool) {
		var walk func(from int, acc []Dims) bool
		walk = func(from int, acc []Dims) bool {
			if len(acc) == n {
				return yield(slices.Clone(acc))
			}
			for i := from; i < len(dims); i++ {
				if !walk(i+1, append(acc, dims[i])) {
					return false
				}
			}
			return true
		}
		walk(0, nil)
	}
}

// product yields the base policy with every combination of the grid
// values of the dimensions in subset.
func (a *advisor) product(subset []Dims, grids map[Dims][]setting) iter.Seq[retrytest.Policy] {
	return func(yield func(retrytest.Policy) bool) {
		var walk func(i int, p retrytest.Policy) bool
		walk = func(i int, p retrytest.Policy) bool {
			if i == len(subset) {
				return yield(p)
			}
			for _, set := range grids[subset[i]] {
				q := p
				set(&q)
				if !walk(i+1, q) {
					return false
				}
			}
			return true
		}
		walk(0, a.centre)
	}
}

// weighAll weighs the shapes, on as many goroutines as there are
// processors, and returns the candidates they give, in the shapes' order.
// It keeps the nearest miss.
func (a *advisor) weighAll(shapes []shape) []candidate {
	type result struct {
		cand, miss candidate
		ok, missed bool
	}
	results := make([]result, len(shapes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(shapes)) {
		wg.Go(func() {
			w := newWeigher(a)
			for i := range next {
				r := &results[i]
				r.cand, r.ok, r.miss, r.missed = w.weigh(shapes[i])
			}
		})
	}
	for i := range shapes {
		next <- i
	}
	close(next)
	wg.Wait()
	a.sims += len(shapes)
	var cands []candidate
	for _, r := range results {
		if r.ok {
			cands = append(cands, r.cand)
		}
		if r.missed && (a.miss == nil || a.nearer(r.miss, *a.miss)) {
			m := r.miss
			a.miss = &m
		}
	}
	return cands
}

// nearer reports whether the miss x is nearer the limits than y: it meets
// the limit on jobs given up and y does not, or both do and x has the
// lower peak, or neither does and x gives up on fewer jobs.
func (a *advisor) nearer(x, y candidate) bool {
	xok, yok := x.gaveUp <= a.maxGave, y.gaveUp <= a.maxGave
	switch {
	case xok != yok:
		return xok
	case xok && x.peak != y.peak:
		return x.peak < y.peak
	case !xok && x.gaveUp != y.gaveUp:
		return x.gaveUp < y.gaveUp
	}
	return x.order < y.order
}

// front returns the candidates that no other one beats, ranked.
func (a *advisor) front(cs []candidate) []candidate {
	var out []candidate
	for _, c := range cs {
		if !slices.ContainsFunc(cs, func(o candidate) bool { return o.beats(c) }) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, a.rank)
	return out
}
