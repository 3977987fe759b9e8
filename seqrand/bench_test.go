package seqrand_test

import (
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// counter counts the draws a *rand.Rand makes from a source.
type counter struct {
	src   mathrand.Source64
	draws int
}

func (c *counter) Uint64() uint64  { c.draws++; return c.src.Uint64() }
func (c *counter) Int63() int64    { c.draws++; return c.src.Int63() }
func (c *counter) Seed(seed int64) { c.src.Seed(seed) }

// The documentation's bound on math/rand's search: at most 38,543 draws
// for Int63n and 15,818 for Int31n (reached when 2ᵏ mod n is just below
// half the range: n = 2⁶²+3, n = 2³⁰+1); every other method draws at most
// twice.
func TestDrawCounts(t *testing.T) {
	worst63, worst31 := 0, 0
	for _, n := range append(ns63, 1<<62+3, 1<<61+1, 3<<60+1) {
		for _, x := range []float64{0.5, maxValue} {
			c := &counter{src: seqrand.Fixed(x)}
			mathrand.New(c).Int63n(int64(n))
			worst63 = max(worst63, c.draws)
			if n < 1<<31 {
				c := &counter{src: seqrand.Fixed(x)}
				mathrand.New(c).Int31n(int32(n))
				worst31 = max(worst31, c.draws)
			}
		}
	}
	if worst63 != 38543 || worst31 != 15818 {
		t.Errorf("math/rand's search drew at most %d times for Int63n and %d for Int31n, want 38543 and 15818", worst63, worst31)
	}
	for _, x := range values {
		for _, n := range ns64 {
			c := &counter{src: source(x)}
			randv2.New(c).Uint64N(n)
			if c.draws > 2 {
				t.Errorf("%s: rand/v2 Uint64N(%d) drew %d times, want at most 2", source(x), n, c.draws)
			}
		}
	}
}

func BenchmarkFloat64Direct(b *testing.B) {
	src := seqrand.Max()
	for b.Loop() {
		src.Float64()
	}
}

func BenchmarkV2IntN(b *testing.B) {
	for _, src := range []*seqrand.Source{seqrand.Max(), seqrand.Min(), seqrand.Seeded(1)} {
		b.Run(src.String(), func(b *testing.B) {
			r := randv2.New(src)
			for b.Loop() {
				r.IntN(1000)
			}
		})
	}
}

func BenchmarkV1Float64(b *testing.B) {
	r := mathrand.New(seqrand.Max())
	for b.Loop() {
		r.Float64()
	}
}

// The slowest call: math/rand's Int63n searching down from the top.
func BenchmarkV1Int63nSearch(b *testing.B) {
	for _, tc := range []struct {
		name string
		n    int64
	}{{"n=1e9", 1e9}, {"n=2^62+3", 1<<62 + 3}} {
		b.Run(tc.name, func(b *testing.B) {
			r := mathrand.New(seqrand.Max())
			for b.Loop() {
				r.Int63n(tc.n)
			}
		})
	}
}
