package seqrand

import (
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
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
