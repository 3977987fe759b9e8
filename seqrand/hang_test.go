package seqrand_test

import (
	"fmt"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/seqrand"
)

// watchdog bounds each call in TestNoMethodHangs, in real time. The slowest
// call that returns, math/rand's Int63n searching for n-1, takes about
// 10ms (a few times that under -race), and a watchdog of TestUnknownFunction
// covers all the calls of one source, 0.2s under -race at GOMAXPROCS=1: 5s
// is twenty-five times that, and it is also what a mutant that makes a call
// loop costs the mutation gate (it was 30s, twice per run of the gate).
const watchdog = 5 * time.Second

// mustReturn runs call in its own goroutine and fails the test if the call
// has not returned within the watchdog. A call that hangs is left running
// (goleak then reports it as well); the test fails either way, and says
// which call hung.
func mustReturn(t *testing.T, what string, call func()) {
	t.Helper()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		call()
	}()
	timer := time.NewTimer(watchdog)
	defer timer.Stop()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s panicked: %v", what, p)
		}
	case <-timer.C:
		t.Fatalf("%s did not return within %v: it hangs", what, watchdog)
	}
}

// wrapper is a Source type that wraps another, as user code might (to add
// a lock, or logging). A *seqrand.Source must be recognized through it.
type wrapper struct{ src mathrand.Source64 }

func (w wrapper) Uint64() uint64  { return w.src.Uint64() }
func (w wrapper) Int63() int64    { return w.src.Int63() }
func (w wrapper) Seed(seed int64) { w.src.Seed(seed) }

// call is one method call on a *rand.Rand of either package.
type call struct {
	name   string
	f      func(r2 *randv2.Rand, r1 *mathrand.Rand) any // returns what the method returned
	search bool                                         // math/rand's Intn, Int31n or Int63n: the long search from 0.5 up
}

// calls lists every method of both *rand.Rand types that draws, with every
// bound of ns32, ns63 and ns64 that the method accepts.
func calls() []call {
	var cs []call
	add := func(name string, f func(r2 *randv2.Rand, r1 *mathrand.Rand) any) {
		cs = append(cs, call{name, f, strings.HasPrefix(name, "math/rand Int")})
	}
	for _, n := range ns64 {
		add(fmt.Sprintf("rand/v2 Uint64N(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Uint64N(n) })
		if n > math.MaxInt64 {
			continue
		}
		add(fmt.Sprintf("rand/v2 Int64N(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Int64N(int64(n)) })
		add(fmt.Sprintf("math/rand Int63n(%d)", n), func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Int63n(int64(n)) })
		if n <= math.MaxInt {
			add(fmt.Sprintf("rand/v2 IntN(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.IntN(int(n)) })
			add(fmt.Sprintf("rand/v2 UintN(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.UintN(uint(n)) })
			add(fmt.Sprintf("math/rand Intn(%d)", n), func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Intn(int(n)) })
		}
		if n > math.MaxInt32 {
			continue
		}
		add(fmt.Sprintf("rand/v2 Int32N(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Int32N(int32(n)) })
		add(fmt.Sprintf("rand/v2 Uint32N(%d)", n), func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Uint32N(uint32(n)) })
		add(fmt.Sprintf("math/rand Int31n(%d)", n), func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Int31n(int32(n)) })
	}
	shuffled := func(shuffle func(n int, swap func(i, j int))) any {
		p := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		return p
	}
	for _, c := range []struct {
		name string
		f    func(r2 *randv2.Rand, r1 *mathrand.Rand) any
	}{
		{"rand/v2 Float64", func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Float64() }},
		{"rand/v2 Float32", func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Float32() }},
		{"rand/v2 ExpFloat64", func(r *randv2.Rand, _ *mathrand.Rand) any { return r.ExpFloat64() }},
		{"rand/v2 NormFloat64", func(r *randv2.Rand, _ *mathrand.Rand) any { return r.NormFloat64() }},
		{"rand/v2 Perm(10)", func(r *randv2.Rand, _ *mathrand.Rand) any { return r.Perm(10) }},
		{"rand/v2 Shuffle(10)", func(r *randv2.Rand, _ *mathrand.Rand) any { return shuffled(r.Shuffle) }},
		{"rand/v2 bits", func(r *randv2.Rand, _ *mathrand.Rand) any {
			return []uint64{
				r.Uint64(),
				uint64(r.Uint32()),
				uint64(r.Uint()),
				uint64(r.Int64()),
				uint64(r.Int32()),
				uint64(r.Int()),
			}
		}},
		{"math/rand Float64", func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Float64() }},
		{"math/rand Float32", func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Float32() }},
		{"math/rand ExpFloat64", func(_ *randv2.Rand, r *mathrand.Rand) any { return r.ExpFloat64() }},
		{"math/rand NormFloat64", func(_ *randv2.Rand, r *mathrand.Rand) any { return r.NormFloat64() }},
		{"math/rand Perm(10)", func(_ *randv2.Rand, r *mathrand.Rand) any { return r.Perm(10) }},
		{"math/rand Shuffle(10)", func(_ *randv2.Rand, r *mathrand.Rand) any { return shuffled(r.Shuffle) }},
		{"math/rand Read(16 bytes)", func(_ *randv2.Rand, r *mathrand.Rand) any {
			b := make([]byte, 16)
			_, _ = r.Read(b)
			return b
		}},
		{"math/rand bits", func(_ *randv2.Rand, r *mathrand.Rand) any {
			return []uint64{
				uint64(r.Int63()),
				uint64(r.Int31()),
				uint64(r.Uint32()),
				r.Uint64(),
				uint64(r.Int()),
			}
		}},
	} {
		add(c.name, c.f)
	}
	return cs
}

// TestNoMethodHangs calls every drawing method of both *rand.Rand types,
// with every bound of the tables, on every kind of source (and some through
// two layers of wrapper), each call under a watchdog.
//
// A constant bit pattern would hang several of them for ever: math/rand's
// Int31n and Int63n loop while the draw is above the largest multiple of n,
// its Float32 while the value rounds to 1, and math/rand/v2's Lemire loop
// while X·n mod 2⁶⁴ < 2⁶⁴ mod n (X = 0 does for every n that is not a
// power of two).
func TestNoMethodHangs(t *testing.T) {
	cs := calls()
	// A Sequence long enough for every call: at most 10 values a call.
	var seq []float64
	for len(seq) < 10*len(cs) {
		seq = append(seq, values...)
	}
	type kind struct {
		src     mathrand.Source64
		name    string
		search  bool // run math/rand's modulo searches too
		wrapped bool
	}
	kinds := []kind{
		{src: seqrand.Seeded(1), search: true},
		{src: seqrand.Sequence(seq...), search: true},
		{src: seqrand.Min(), search: true, wrapped: true},
		{src: seqrand.Max(), search: true, wrapped: true},
		{src: seqrand.Fixed(0.5), wrapped: true},
	}
	for _, k := range kinds {
		if k.wrapped {
			kinds = append(kinds, kind{src: wrapper{wrapper{k.src}}, name: "wrapped " + fmt.Sprint(k.src), search: k.search})
		}
	}
	for _, x := range values[1 : len(values)-1] {
		// From 0.5 up every value draws the same words in math/rand's
		// modulo loops as Max, which runs them; below, the same as Min.
		if x != 0.5 {
			kinds = append(kinds, kind{src: source(x)})
		}
	}
	for _, k := range kinds {
		if k.name == "" {
			k.name = fmt.Sprint(k.src)
		}
		t.Run(k.name, func(t *testing.T) {
			r2, r1 := randv2.New(k.src), mathrand.New(k.src)
			for _, c := range cs {
				if c.search && !k.search {
					continue
				}
				mustReturn(t, k.name+": "+c.name, func() { c.f(r2, r1) })
			}
		})
	}
}

// deep is src wrapped n times.
func deep(src mathrand.Source64, n int) mathrand.Source64 {
	for range n {
		src = wrapper{src}
	}
	return src
}

// A wrapped source returns what the source itself returns, through two
// wrappers and through ten, deeper than the call-site cache looks.
func TestWrappedSourceIsRecognized(t *testing.T) {
	for _, x := range []float64{0, 0.5, 0.7, maxValue} {
		testWrapped(t, x, 2)
	}
	for _, x := range []float64{0, maxValue} {
		testWrapped(t, x, 10)
	}
}

// testWrapped compares a source of x wrapped depth times with the source.
func testWrapped(t *testing.T, x float64, depth int) {
	t.Helper()
	plain, wrapped := randv2.New(source(x)), randv2.New(deep(source(x), depth))
	p1, w1 := mathrand.New(source(x)), mathrand.New(deep(source(x), depth))
	for _, n := range []uint64{3, 6, 10, 1e9} {
		if got, want := wrapped.Uint64N(n), plain.Uint64N(n); got != want {
			t.Errorf("%d wrappers around %s: rand/v2 Uint64N(%d) = %d, want %d", depth, source(x), n, got, want)
		}
		if got, want := w1.Int63n(int64(n)), p1.Int63n(int64(n)); got != want {
			t.Errorf("%d wrappers around %s: math/rand Int63n(%d) = %d, want %d", depth, source(x), n, got, want)
		}
	}
	if got, want := wrapped.Float64(), plain.Float64(); got != want {
		t.Errorf("%d wrappers around %s: rand/v2 Float64() = %v, want %v", depth, source(x), got, want)
	}
	if got, want := w1.Float32(), p1.Float32(); got != want {
		t.Errorf("%d wrappers around %s: math/rand Float32() = %v, want %v", depth, source(x), got, want)
	}
}
