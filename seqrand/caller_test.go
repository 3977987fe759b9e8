package seqrand

import (
	"fmt"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// The running Go's rejection loops were recognized: every method with one
// has its power-of-two line (except int31n, which has none), its first-draw
// line and its retry line, each once.
func TestCalibration(t *testing.T) {
	c := calibrated()
	if c.err != nil {
		t.Fatal(c.err)
	}
	count := map[string]map[site]int{}
	for k, s := range c.sites {
		name := k.pkg + k.fn
		if count[name] == nil {
			count[name] = map[site]int{}
		}
		count[name][s]++
	}
	for _, tc := range []struct {
		fn    string
		sites []site
	}{
		{pkgV2 + "uint64n", []site{v2Mask, v2First, v2Retry}},
		{pkgV1 + "Int63n", []site{v1Mask, v1First, v1Retry63}},
		{pkgV1 + "Int31n", []site{v1Mask, v1First, v1Retry31}},
		{pkgV1 + "int31n", []site{v1LemireFirst, v1LemireRetry}},
	} {
		for _, s := range tc.sites {
			if count[tc.fn][s] != 1 {
				t.Errorf("calibration found %d lines of site %d in %s, want 1 (all: %v)", count[tc.fn][s], s, tc.fn, c.sites)
			}
		}
		if got := len(count[tc.fn]); got != len(tc.sites) {
			t.Errorf("calibration found sites %v in %s, want %v", count[tc.fn], tc.fn, tc.sites)
		}
	}
}

// pinned is a source that answers every draw with the word one site would
// get, and counts the draws.
type pinned struct {
	at    site
	x     float64
	st    state
	draws int
}

func (p *pinned) Uint64() uint64 { p.draws++; return word(p.at, p.x, &p.st, false) }
func (p *pinned) Int63() int64   { p.draws++; return int64(word(p.at, p.x, &p.st, true)) }
func (p *pinned) Seed(int64)     {}

// When calibration does not recognize a line (a future Go release that
// restructures a loop), draws there get patterns that every loop accepts
// at once; so does a retry that follows another retry. None can hang.
func TestFallbackWordsAreAcceptedAtOnce(t *testing.T) {
	ns := []uint64{1, 2, 3, 4, 5, 6, 7, 10, 1000, 6144, 1e9, 1<<30 + 1, 1<<31 - 1, 1 << 31, 3 << 32, 1e18, 1<<62 + 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64}
	for _, x := range []float64{0, 0.3, 0.5, below1} {
		for _, n := range ns {
			for _, p := range []*pinned{{at: v2Safe, x: x}, {at: v2Retry, x: x, st: state{retries: 2}}} {
				randv2.New(p).Uint64N(n)
				if p.draws != 1 {
					t.Errorf("site %d, x = %v: rand/v2 Uint64N(%d) drew %d times, want once", p.at, x, n, p.draws)
				}
			}
			if n > math.MaxInt64 {
				continue
			}
			p := &pinned{at: v1Safe, x: x}
			mathrand.New(p).Int63n(int64(n))
			if p.draws != 1 {
				t.Errorf("x = %v: math/rand Int63n(%d) at an unknown line drew %d times, want once", x, n, p.draws)
			}
			if n <= math.MaxInt32 {
				p := &pinned{at: v1Safe, x: x}
				mathrand.New(p).Int31n(int32(n))
				if p.draws != 1 {
					t.Errorf("x = %v: math/rand Int31n(%d) at an unknown line drew %d times, want once", x, n, p.draws)
				}
			}
		}
		for _, p := range []*pinned{{at: v1LemireSafe, x: x}, {at: v1LemireRetry, x: x, st: state{retries: 2}}} {
			mathrand.New(p).Shuffle(50, func(int, int) {})
			if p.draws != 49 {
				t.Errorf("site %d, x = %v: math/rand Shuffle(50) drew %d times, want 49", p.at, x, p.draws)
			}
		}
	}
}

// The retry of Lemire's loop returns the same result as the rejected draw
// would have and is always accepted: rand/v2's IntN draws at most twice.
func TestLemireRetryKeepsTheResult(t *testing.T) {
	retried := 0
	for _, x := range []float64{0, 0.5, 0.25, 0.75, 0.1} {
		for _, n := range []uint64{3, 6, 10, 12, 6144, 3 << 32, 1e9, 5 << 40} {
			p := &pinned{at: v2First, x: x, st: state{repeat: true}}
			r := randv2.New(&retrying{p})
			got := r.Uint64N(n)
			if want := uint64(math.Floor(x * float64(n))); got != want || p.draws > 2 {
				t.Errorf("x = %v: Uint64N(%d) = %d after %d draws, want %d within 2 draws", x, n, got, p.draws, want)
			}
			if p.draws == 2 {
				retried++
			}
		}
	}
	if retried < 10 {
		t.Errorf("only %d of the calls were retried; the table no longer tests the retry", retried)
	}
}

// retrying turns the second and later draws of a pinned source into the
// retries the rejection loop makes.
type retrying struct{ p *pinned }

func (r *retrying) Uint64() uint64 {
	if r.p.draws > 0 {
		r.p.at = v2Retry
		r.p.st.retries++
	}
	return r.p.Uint64()
}

// walker is a source that answers every draw with the word an unknown site
// would give it, stepping, as a Source does, with the draws made at the
// same place (here, the same caller's program counter), and that stops
// after limit draws, so that a loop that would never end fails the test
// instead of hanging it.
type walker struct {
	at    site
	xs    []float64 // the values of the draws, in turn (repeating)
	start int       // the draws each place has made before: a Source's places keep theirs
	limit int
	draws int
	st    map[uintptr]*state
}

// errLimit is what a walker panics with at its limit.
var errLimit = fmt.Errorf("walker: too many draws")

// word answers one draw: the word of w.at for the next value, stepped with
// the draws made before from the same caller.
func (w *walker) word(viaInt63 bool) uint64 {
	if w.draws == w.limit {
		panic(errLimit)
	}
	var pc [1]uintptr
	runtime.Callers(3, pc[:])
	if w.st == nil {
		w.st = map[uintptr]*state{}
	}
	st := w.st[pc[0]]
	if st == nil {
		st = &state{retries: w.start}
		w.st[pc[0]] = st
	}
	b := word(w.at, w.xs[w.draws%len(w.xs)], st, viaInt63)
	st.retries++
	w.draws++
	return b
}

func (w *walker) Uint64() uint64 { return w.word(false) }
func (w *walker) Int63() int64   { return int64(w.word(true)) }
func (w *walker) Seed(int64)     {}

// ends runs f on w and reports whether it returned within w's limit.
func (w *walker) ends(f func(r2 *randv2.Rand, r1 *mathrand.Rand)) (ok bool) {
	defer func() {
		if p := recover(); p != nil && p != errLimit {
			panic(p)
		}
	}()
	f(randv2.New(w), mathrand.New(w))
	return true
}

// The words of the unknown sites end every rejection loop of both packages
// (Lemire's, the modulo loops, Float64's and Float32's, the ziggurats), for
// every bound, whether the draws keep to one end or swap ends, as a
// Sequence's values may, and whatever number of draws each place has made
// before (your code calling again from one line leaves it at any; most
// bounds are tried from a place's first draw only): the loops of
// math/rand/v2 within 3 draws at a place, int31n within 300 draws, and
// math/rand's other loops within 200,000 (ExpFloat64 at the top through
// Int63 takes 135,274: the slowest).
func TestUnknownWordsEndEveryLoop(t *testing.T) {
	type loop struct {
		name  string
		limit int
		f     func(r2 *randv2.Rand, r1 *mathrand.Rand)
	}
	bounds := func(ns []uint64) []loop {
		var ls []loop
		for _, n := range ns {
			ls = append(ls, loop{fmt.Sprintf("rand/v2 Uint64N(%d)", n), 4, func(r *randv2.Rand, _ *mathrand.Rand) { r.Uint64N(n) }})
			if n <= math.MaxInt64 {
				ls = append(ls, loop{fmt.Sprintf("math/rand Int63n(%d)", n), 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.Int63n(int64(n)) }})
			}
			if n <= math.MaxInt32 {
				ls = append(ls,
					loop{fmt.Sprintf("math/rand Int31n(%d)", n), 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.Int31n(int32(n)) }},
					// Shuffle(n+1) calls int31n(n+1) first; stop it after that.
					loop{fmt.Sprintf("math/rand int31n(%d)", n), 300, func(_ *randv2.Rand, r *mathrand.Rand) {
						defer func() { _ = recover() }()
						r.Shuffle(int(n), func(int, int) { panic("enough") })
					}})
			}
		}
		return append(ls,
			loop{"rand/v2 ExpFloat64", 8, func(r *randv2.Rand, _ *mathrand.Rand) { r.ExpFloat64() }},
			loop{"rand/v2 NormFloat64", 8, func(r *randv2.Rand, _ *mathrand.Rand) { r.NormFloat64() }},
			loop{"math/rand Float64", 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.Float64() }},
			loop{"math/rand Float32", 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.Float32() }},
			loop{"math/rand ExpFloat64", 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.ExpFloat64() }},
			loop{"math/rand NormFloat64", 200_000, func(_ *randv2.Rand, r *mathrand.Rand) { r.NormFloat64() }},
		)
	}
	large := []uint64{1<<30 + 1, 1<<31 - 1, 1 << 31, 3 << 32, 1e18, 1<<62 + 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64}
	all := bounds(append([]uint64{2, 3, 4, 5, 6, 7, 10, 1000, 6144, 1e9}, large...))
	later := bounds([]uint64{3, 6, 1 << 31, 3 << 32, 1<<62 + 1, 1<<63 + 1})
	// The words depend on the end only (below 0.5 or not), so 0 and below1
	// stand for every value.
	patterns := [][]float64{{0}, {below1}, {0, below1}, {below1, 0}, {below1, below1, 0}}
	for _, at := range []site{v2Unknown, v1Unknown63, v1Unknown31, v1Unknown32} {
		for start := range 4 {
			loops, patterns := all, patterns
			if start > 0 {
				loops, patterns = later, patterns[:2] // the swaps of ends start places at every step
			}
			for _, xs := range patterns {
				for _, l := range loops {
					if at == v2Unknown && strings.HasPrefix(l.name, "math/rand ") {
						continue // math/rand's draws never reach v2Unknown
					}
					w := &walker{at: at, xs: xs, start: start, limit: l.limit}
					if !w.ends(l.f) {
						t.Errorf("site %d, values %v, %d draws before at each place: %s did not end within %d draws", at, xs, start, l.name, l.limit)
					}
				}
			}
		}
	}
}

// A function seqrand does not know is served as the nearest method above it
// that it knows, skipping the accessors between: a helper under Int31n's
// Int31 gets words Int31n's loop accepts at once; a helper between Float32
// and Float64, or under Float64 under Float32, words Float32 accepts.
func TestUnknownHelperServedAsTheMethodAbove(t *testing.T) {
	for _, tc := range []struct {
		c    call
		name string
		f    func(r *mathrand.Rand) any
		want any // at Max
	}{
		{call{pkg: pkgV1, fn: "helper", line: 1, above: []string{"Int31", "Int31n", "Intn"}}, "Int31n(3)",
			func(r *mathrand.Rand) any { return r.Int31n(3) }, nil},
		{call{pkg: pkgV1, fn: "Float64", line: 1, via: "Int63", above: []string{"helper", "Float32"}}, "Float32()",
			func(r *mathrand.Rand) any { return r.Float32() }, float32(1 - 0x1p-24)},
		{call{pkg: pkgV1, fn: "helper", line: 1, above: []string{"Float64", "Float32"}}, "Float32()",
			func(r *mathrand.Rand) any { return r.Float32() }, float32(1 - 0x1p-24)},
		{call{pkg: pkgV1, fn: "helper", line: 1, above: []string{"Float64"}}, "Float64()",
			func(r *mathrand.Rand) any { return r.Float64() }, below1},
	} {
		at := siteOf(tc.c)
		for _, x := range []float64{0, below1} {
			w := &walker{at: at, xs: []float64{x}, limit: 10}
			var got any
			if !w.ends(func(_ *randv2.Rand, r *mathrand.Rand) { got = tc.f(r) }) || w.draws != 1 {
				t.Errorf("%v: site %d: x = %v: %s drew %d times, want once", tc.c, at, x, tc.name, w.draws)
			}
			if x == below1 && tc.want != nil && got != tc.want {
				t.Errorf("%v: site %d: Max: %s = %v, want %v", tc.c, at, tc.name, got, tc.want)
			}
		}
	}
}

// At a line calibration did not see, a method with a rejection loop gets
// words its loop accepts at once, at the ends the Source documentation
// gives: 0 below 0.5, but 1 through math/rand/v2 for n a power of two above
// 1, and n-1 from 0.5 up, but 2⁶² mod n through math/rand's modulo loops.
func TestSafeWordsAtTheEnds(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 4, 6, 10, 1 << 20, 1e9, 1<<31 - 1, 1 << 40, 1e18, 1<<63 + 1, math.MaxUint64} {
		for _, x := range []float64{0, 0.3, 0.7, below1} {
			want := uint64(0)
			switch {
			case x >= 0.5:
				want = n - 1
			case n > 1 && n&(n-1) == 0:
				want = 1
			}
			if got := randv2.New(&pinned{at: v2Safe, x: x}).Uint64N(n); got != want {
				t.Errorf("x = %v: rand/v2 Uint64N(%d) at an unknown line = %d, want %d", x, n, got, want)
			}
			if n > math.MaxInt64 {
				continue
			}
			want63, want31 := uint64(0), uint64(0)
			if x >= 0.5 {
				want63, want31 = (1<<62)%n, (1<<62>>32)%n
			}
			if got := uint64(mathrand.New(&pinned{at: v1Safe, x: x}).Int63n(int64(n))); got != want63 {
				t.Errorf("x = %v: math/rand Int63n(%d) at an unknown line = %d, want %d", x, n, got, want63)
			}
			if n <= math.MaxInt32 {
				if got := uint64(mathrand.New(&pinned{at: v1Safe, x: x}).Int31n(int32(n))); got != want31 {
					t.Errorf("x = %v: math/rand Int31n(%d) at an unknown line = %d, want %d", x, n, got, want31)
				}
			}
		}
	}
	for _, x := range []float64{0, below1} {
		// Shuffle(n) swaps n-1 with int31n(n): 0 at the bottom, n-1 at the top.
		var js []int
		mathrand.New(&pinned{at: v1LemireSafe, x: x}).Shuffle(6, func(i, j int) { js = append(js, j) })
		want := []int{0, 0, 0, 0, 0}
		if x > 0 {
			want = []int{5, 4, 3, 2, 1}
		}
		if !reflect.DeepEqual(js, want) {
			t.Errorf("x = %v: math/rand Shuffle(6) at an unknown line swapped with %v, want %v", x, js, want)
		}
	}
}

// At a line calibration did not see, each method with a rejection loop gets
// the words its own loop accepts at once: math/rand/v2's uint64n, the
// modulo loops of Int63n and Int31n, and int31n (Shuffle), whose safe word
// differs from theirs.
func TestUnseenLineGetsTheSafeWords(t *testing.T) {
	for _, tc := range []struct {
		c     call
		name  string
		f     func(r2 *randv2.Rand, r1 *mathrand.Rand)
		draws int
	}{
		{call{pkg: pkgV2, fn: "uint64n", line: -1, via: "Uint64", above: []string{"IntN"}}, "rand/v2 IntN(6144)",
			func(r *randv2.Rand, _ *mathrand.Rand) { r.IntN(6144) }, 1},
		{call{pkg: pkgV1, fn: "Int63n", line: -1, via: "Int63"}, "math/rand Int63n(1<<62+1)",
			func(_ *randv2.Rand, r *mathrand.Rand) { r.Int63n(1<<62 + 1) }, 1},
		{call{pkg: pkgV1, fn: "Int31n", line: -1, via: "Int31", above: []string{"Intn"}}, "math/rand Intn(1<<30+1)",
			func(_ *randv2.Rand, r *mathrand.Rand) { r.Intn(1<<30 + 1) }, 1},
		{call{pkg: pkgV1, fn: "int31n", line: -1, via: "Uint32", above: []string{"Shuffle"}}, "math/rand Shuffle(50)",
			func(_ *randv2.Rand, r *mathrand.Rand) { r.Shuffle(50, func(int, int) {}) }, 49},
	} {
		at := siteOf(tc.c)
		for _, x := range []float64{0, below1} {
			w := &walker{at: at, xs: []float64{x}, limit: 100}
			if !w.ends(tc.f) || w.draws != tc.draws {
				t.Errorf("%s at a line calibration did not see: site %d, x = %v: drew %d times, want %d", tc.name, at, x, w.draws, tc.draws)
			}
		}
	}
}

// A function seqrand does not know, called by no method it knows, searches
// from the top in the bits it reads (the accessor it called): a modulo loop
// through Int31 or Int63 finds n-1 as the known loops do, within a few
// draws when 2ᵏ mod n is small.
func TestUnknownFunctionSearchesInItsBits(t *testing.T) {
	for _, tc := range []struct {
		via  string
		name string
		f    func(r *mathrand.Rand) int64
	}{
		{"Int31", "Int31n(3)", func(r *mathrand.Rand) int64 { return int64(r.Int31n(3)) }},
		{"Int63", "Int63n(3)", func(r *mathrand.Rand) int64 { return r.Int63n(3) }},
		{"", "Int63n(3)", func(r *mathrand.Rand) int64 { return r.Int63n(3) }},
	} {
		at := siteOf(call{pkg: pkgV1, fn: "helper", line: 1, via: tc.via})
		w := &walker{at: at, xs: []float64{below1}, limit: 100}
		var got int64
		// 2ᵏ mod 3 = 2: the first draw and a retry are refused, and the
		// search's second step is accepted: 5 draws at the two places.
		if !w.ends(func(_ *randv2.Rand, r *mathrand.Rand) { got = tc.f(r) }) || got != 2 || w.draws > 5 {
			t.Errorf("an unknown function through %q: Max: %s = %d after %d draws, want 2 within 5", tc.via, tc.name, got, w.draws)
		}
	}
}
