package seqrand_test

import (
	"fmt"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// FuzzFixed checks the documented images of x through every Float64 and
// through the IntN families of both packages, for any x and n, and that no
// call draws more often than documented (so none hangs): rand/v2's Uint64N
// at most twice, math/rand's Int63n at most 38,543 times. Values outside
// [0, 1) must panic, naming themselves.
func FuzzFixed(f *testing.F) {
	for _, x := range values {
		f.Add(x, uint64(1e9))
	}
	f.Add(0.5, uint64(6))
	f.Add(0.5, uint64(6144))
	f.Add(0.7, uint64(10))
	f.Add(1.0, uint64(3))
	f.Add(math.NaN(), uint64(3))
	f.Add(math.Copysign(0, -1), uint64(1<<63+1))
	f.Fuzz(func(t *testing.T, x float64, n uint64) {
		if !(x >= 0 && x < 1) {
			defer func() {
				if msg := fmt.Sprint(recover()); !strings.HasPrefix(msg, "seqrand: Fixed: ") || !strings.HasSuffix(msg, " is outside [0, 1)") {
					t.Errorf("Fixed(%v) panicked with %q, want it to name the value and [0, 1)", x, msg)
				}
			}()
			seqrand.Fixed(x)
			return
		}
		x += 0 // -0 is 0
		if got := seqrand.Fixed(x).Float64(); got != x {
			t.Errorf("Fixed(%v).Float64() = %v, want x", x, got)
		}
		if got, want := randv2.New(seqrand.Fixed(x)).Float64(), floorFloat(x, 53); got != want {
			t.Errorf("Fixed(%v): rand/v2 Float64() = %v, want %v", x, got, want)
		}
		if got, want := mathrand.New(seqrand.Fixed(x)).Float64(), floorFloat(x, 63); got != want {
			t.Errorf("Fixed(%v): math/rand Float64() = %v, want %v", x, got, want)
		}
		if n == 0 {
			return
		}
		c := &counter{src: seqrand.Fixed(x)}
		got := randv2.New(c).Uint64N(n)
		want := lemire(x, n)
		switch {
		case pow2(n):
			want = ends(x, n)
		case x >= 0x1p-11 && x != maxValue && want != floorTimes(x, n):
			t.Fatalf("lemire(%v, %d) = %d, want ⌊x·n⌋ = %d", x, n, want, floorTimes(x, n))
		}
		if got != want || c.draws > 2 {
			t.Errorf("Fixed(%v): rand/v2 Uint64N(%d) = %d after %d draws, want %d within 2 draws", x, n, got, c.draws, want)
		}
		m := max(1, n>>1) // a valid Int63n bound
		c = &counter{src: seqrand.Fixed(x)}
		got = uint64(mathrand.New(c).Int63n(int64(m)))
		if c.draws > 38543 {
			t.Errorf("Fixed(%v): math/rand Int63n(%d) drew %d times, want at most 38543", x, m, c.draws)
		}
		if pow2(m) {
			if want := ends(x, m); got != want {
				t.Errorf("Fixed(%v): math/rand Int63n(%d) = %d, want %d", x, m, got, want)
			}
			return
		}
		checkModulo(t, fmt.Sprintf("Fixed(%v): math/rand Int63n(%d)", x, m), x, m, got, 63)
	})
}
