package seqrand_test

import (
	"errors"
	"fmt"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// The shapes retry code takes randomness in; a *Source must fit each.
var (
	_ func() float64    = seqrand.Min().Float64
	_ randv2.Source     = seqrand.Min()
	_ mathrand.Source64 = seqrand.Min()
	_ fmt.Stringer      = seqrand.Min()
)

func TestString(t *testing.T) {
	for _, tc := range []struct {
		src  *seqrand.Source
		want string
	}{
		{seqrand.Min(), "Min"},
		{seqrand.Max(), "Max"},
		{seqrand.Fixed(0.25), "Fixed(0.25)"},
		{seqrand.Fixed(math.Copysign(0, -1)), "Fixed(0)"},
		{seqrand.Fixed(maxValue), "Fixed(0.9999999999999999)"},
		{seqrand.Fixed(1e-300), "Fixed(1e-300)"},
		{seqrand.Sequence(0, 0.5, maxValue), "Sequence(0, 0.5, 0.9999999999999999)"},
		{seqrand.Sequence(0, 0.1, 0.2, 0.3, 0.4, 0.5), "Sequence(0, 0.1, 0.2, 0.3, 0.4, 0.5)"},
		{seqrand.Sequence(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6), "Sequence(0, 0.1, 0.2, 0.3, 0.4, … 7 values)"},
		{seqrand.Seeded(42), "Seeded(42)"},
	} {
		if got := tc.src.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	ends := seqrand.Endpoints()
	if len(ends) != 2 || ends[0].String() != "Min" || ends[1].String() != "Max" {
		t.Errorf("Endpoints() = %v, want [Min Max]", ends)
	}
}

func TestBadValuesPanic(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"Fixed(1)", func() { seqrand.Fixed(1) }, "seqrand: Fixed: 1 is outside [0, 1)"},
		{"Fixed(-0.1)", func() { seqrand.Fixed(-0.1) }, "seqrand: Fixed: -0.1 is outside [0, 1)"},
		{"Fixed(NaN)", func() { seqrand.Fixed(math.NaN()) }, "seqrand: Fixed: NaN is outside [0, 1)"},
		{"Fixed(+Inf)", func() { seqrand.Fixed(math.Inf(1)) }, "seqrand: Fixed: +Inf is outside [0, 1)"},
		{"Sequence()", func() { seqrand.Sequence() }, "seqrand: Sequence: no values; want at least one in [0, 1)"},
		{"Sequence(0, 1.5)", func() { seqrand.Sequence(0, 1.5) }, "seqrand: Sequence: value 2 (1.5) is outside [0, 1)"},
		{"Sequence(NaN)", func() { seqrand.Sequence(math.NaN()) }, "seqrand: Sequence: value 1 (NaN) is outside [0, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tc.want {
					t.Errorf("%s panicked with %v, want %q", tc.name, got, tc.want)
				}
			}()
			tc.f()
		})
	}
}

// exhausted calls f and returns the error it panicked with, or nil.
func exhausted(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err, _ = r.(error)
			if err == nil {
				err = fmt.Errorf("panicked with a %T: %v", r, r)
			}
		}
	}()
	f()
	return nil
}

// Each method call takes one value; the retries of its rejection loop do
// not. Drawing past the end panics.
func TestSequenceTakesOneValuePerCall(t *testing.T) {
	const wantErr = "seqrand: Sequence(0, 0.5, 0.9999999999999999): exhausted: the code under test asked for value 4 of 3"
	for _, tc := range []struct {
		name string
		draw []func(src *seqrand.Source) uint64
		want []uint64
	}{
		{
			// 0 and 0.5·6 = 3 are both rejected by Lemire's loop once.
			name: "rand/v2 IntN",
			draw: []func(*seqrand.Source) uint64{
				func(s *seqrand.Source) uint64 { return uint64(randv2.New(s).IntN(3)) },
				func(s *seqrand.Source) uint64 { return uint64(randv2.New(s).IntN(6)) },
				func(s *seqrand.Source) uint64 { return uint64(randv2.New(s).IntN(1e9)) },
			},
			want: []uint64{0, 3, 1e9 - 1},
		},
		{
			// Max searches down for thousands of draws; 0.5 does too.
			name: "math/rand Int63n and Intn",
			draw: []func(*seqrand.Source) uint64{
				func(s *seqrand.Source) uint64 { return uint64(mathrand.New(s).Int63n(1e9)) },
				func(s *seqrand.Source) uint64 { return uint64(mathrand.New(s).Intn(3)) },
				func(s *seqrand.Source) uint64 { return uint64(mathrand.New(s).Intn(1000)) },
			},
			want: []uint64{0, 2, 999},
		},
		{
			name: "direct and mixed",
			draw: []func(*seqrand.Source) uint64{
				func(s *seqrand.Source) uint64 { return math.Float64bits(s.Float64()) },
				func(s *seqrand.Source) uint64 { return uint64(mathrand.New(s).Float32() * 4) },
				func(s *seqrand.Source) uint64 { return s.Uint64() },
			},
			want: []uint64{0, 2, math.MaxUint64},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := seqrand.Sequence(0, 0.5, maxValue)
			for i, d := range tc.draw {
				if got := d(src); got != tc.want[i] {
					t.Errorf("draw %d = %d, want %d", i+1, got, tc.want[i])
				}
			}
			err := exhausted(func() { tc.draw[0](src) })
			if !errors.Is(err, seqrand.ErrExhausted) || err.Error() != wantErr {
				t.Errorf("draw 4 panicked with %v, want %q wrapping ErrExhausted", err, wantErr)
			}
			src.Seed(99)
			if got := tc.draw[0](src); got != tc.want[0] {
				t.Errorf("after Seed, draw 1 = %d, want %d", got, tc.want[0])
			}
		})
	}
}

func TestFixedNeverRunsOut(t *testing.T) {
	src := seqrand.Fixed(0.25)
	for i := range 1000 {
		if got := src.Float64(); got != 0.25 {
			t.Fatalf("draw %d: Float64() = %v, want 0.25", i+1, got)
		}
	}
}

// Seeded(s) has the stream of math/rand/v2's PCG seeded with (s, 0).
func TestSeeded(t *testing.T) {
	for _, seed := range []uint64{0, 1, 42, math.MaxUint64} {
		got, want := randv2.New(seqrand.Seeded(seed)), randv2.New(randv2.NewPCG(seed, 0))
		for i := range 100 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("Seeded(%d): rand/v2 Uint64() draw %d = %#x, want %#x", seed, i+1, g, w)
			}
			if g, w := got.IntN(1000), want.IntN(1000); g != w {
				t.Fatalf("Seeded(%d): rand/v2 IntN(1000) draw %d = %d, want %d", seed, i+1, g, w)
			}
		}
		direct, v2 := seqrand.Seeded(seed), randv2.New(seqrand.Seeded(seed))
		for i := range 100 {
			if g, w := direct.Float64(), v2.Float64(); g != w {
				t.Fatalf("Seeded(%d).Float64() draw %d = %v, want rand/v2's %v", seed, i+1, g, w)
			}
		}
		v1, pcg := seqrand.Seeded(seed), randv2.NewPCG(seed, 0)
		if g, w := v1.Int63(), int64(pcg.Uint64()>>1); g != w {
			t.Errorf("Seeded(%d).Int63() = %d, want %d", seed, g, w)
		}
	}
	src := seqrand.Seeded(1)
	first := src.Uint64()
	src.Seed(7)
	if got, want := src.Uint64(), randv2.NewPCG(7, 0).Uint64(); got != want || src.String() != "Seeded(7)" {
		t.Errorf("after Seed(7): Uint64() = %#x and String() = %q, want %#x and Seeded(7)", got, src.String(), want)
	}
	src.Seed(1)
	if got := src.Uint64(); got != first {
		t.Errorf("after Seed(1): Uint64() = %#x, want the first draw again, %#x", got, first)
	}
}

// Many goroutines may share one source; under -race this checks its
// locking. math/rand/v2's methods and Float64 stay exact however draws
// interleave. math/rand's modulo search keeps its state in the source, so
// it is exact when one *rand.Rand (guarded by a mutex, as a *rand.Rand must
// be) uses the source, and when the searches of several *rand.Rand values
// on one source interleave it may end below n-1 (never above, never hangs).
func TestConcurrentUse(t *testing.T) {
	for _, mk := range []func() *seqrand.Source{seqrand.Max, seqrand.Min, func() *seqrand.Source { return seqrand.Fixed(0.5) }} {
		src, guarded := mk(), mk()
		want := map[string]int{"Max": 9, "Min": 0, "Fixed(0.5)": 5}[src.String()]  // rand/v2: ⌊x·n⌋
		want1 := map[string]int{"Max": 9, "Min": 0, "Fixed(0.5)": 9}[src.String()] // math/rand: the nearer end
		x := src.Float64()
		var mu sync.Mutex
		shared := mathrand.New(guarded)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				r2, own := randv2.New(src), mathrand.New(src)
				for range 50 {
					mu.Lock()
					b := shared.Intn(10)
					mu.Unlock()
					if a, c, d := r2.IntN(10), src.Float64(), own.Intn(10); a != want || b != want1 || c != x || d > want1 {
						errs <- fmt.Errorf("%s: rand/v2 IntN(10), guarded math/rand Intn(10), Float64(), unguarded math/rand Intn(10) = %d, %d, %v, %d; want %d, %d, %v and at most %d",
							src, a, b, c, d, want, want1, x, want1)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}
	src := seqrand.Seeded(3)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r := randv2.New(src)
			for range 50 {
				r.IntN(10)
				src.Float64()
			}
		})
	}
	wg.Wait()
}
