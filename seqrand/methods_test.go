package seqrand_test

import (
	"fmt"
	"math"
	"math/bits"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"testing"
)

// Each test below pins one row of the package documentation's table: what
// each method returns for a draw of x.

func TestFloat64Direct(t *testing.T) {
	for _, x := range values {
		if got := source(x).Float64(); got != x {
			t.Errorf("%s.Float64() = %v, want %v", source(x), got, x)
		}
	}
}

func TestDirectBits(t *testing.T) {
	for _, x := range values {
		src := source(x)
		if got, want := src.Uint64(), bigFixed(x).Uint64(); got != want {
			t.Errorf("%s.Uint64() = %#x, want %#x", src, got, want)
		}
		if got, want := uint64(src.Int63()), scaled(x, 63); got != want {
			t.Errorf("%s.Int63() = %#x, want %#x", src, got, want)
		}
	}
}

func TestV2Floats(t *testing.T) {
	for _, x := range values {
		r := randv2.New(source(x))
		if got, want := r.Float64(), floorFloat(x, 53); got != want {
			t.Errorf("%s: rand/v2 Float64() = %v, want ⌊x·2⁵³⌋/2⁵³ = %v", source(x), got, want)
		}
		if x >= 0.5 || x == 0 || x == 0.25 || x == 0.75 {
			if got := r.Float64(); got != x {
				t.Errorf("%s: rand/v2 Float64() = %v, want x exactly", source(x), got)
			}
		}
		if got, want := r.Float32(), float32(floorFloat(x, 24)); got != want {
			t.Errorf("%s: rand/v2 Float32() = %v, want ⌊x·2²⁴⌋/2²⁴ = %v", source(x), got, want)
		}
	}
}

func TestV2Bits(t *testing.T) {
	for _, x := range values {
		r := randv2.New(source(x))
		for _, tc := range []struct {
			call string
			got  uint64
			want uint64
		}{
			{"Uint64()", r.Uint64(), scaled(x, 64)},
			{"Uint()", uint64(r.Uint()), scaled(x, bits.UintSize)},
			{"Uint32()", uint64(r.Uint32()), scaled(x, 32)},
			{"Int32()", uint64(r.Int32()), scaled(x, 31)},
			{"Int64()", uint64(r.Int64()), scaled(x, 63)},
			{"Int()", uint64(r.Int()), scaled(x, bits.UintSize-1)},
		} {
			if tc.got != tc.want {
				t.Errorf("%s: rand/v2 %s = %#x, want %#x", source(x), tc.call, tc.got, tc.want)
			}
		}
	}
}

func TestV2IntN(t *testing.T) {
	for _, x := range values {
		t.Run(source(x).String(), func(t *testing.T) {
			r := randv2.New(source(x))
			for _, n := range ns64 {
				want := lemire(x, n)
				if pow2(n) {
					want = ends(x, n)
				} else if x >= 0x1p-11 && x != maxValue && want != floorTimes(x, n) {
					t.Fatalf("test helper: lemire(%v, %d) = %d, want ⌊x·n⌋ = %d", x, n, want, floorTimes(x, n))
				}
				check := func(call string, got uint64) {
					t.Helper()
					if got != want {
						t.Errorf("%s(%d) = %d, want %d", call, n, got, want)
					}
				}
				check("Uint64N", r.Uint64N(n))
				if n <= math.MaxInt64 {
					check("Int64N", uint64(r.Int64N(int64(n))))
				}
				if n <= math.MaxInt {
					check("IntN", uint64(r.IntN(int(n))))
				}
				if n <= math.MaxUint {
					check("UintN", uint64(r.UintN(uint(n))))
				}
				if n <= math.MaxInt32 {
					check("Int32N", uint64(r.Int32N(int32(n))))
				}
				if n <= math.MaxUint32 {
					check("Uint32N", uint64(r.Uint32N(uint32(n))))
				}
			}
		})
	}
}

// ⌊x·n⌋ is of the exact product: 0.7 is stored as 0.69999999999999995559…,
// so IntN(10) is 6 although the float64 product 0.7*10 rounds to 7.
func TestV2IntNUsesTheExactProduct(t *testing.T) {
	if got := randv2.New(source(0.7)).IntN(10); got != 6 {
		t.Errorf("Fixed(0.7): rand/v2 IntN(10) = %d, want 6", got)
	}
	if got := randv2.New(source(0.7)).Int64N(1e9); got != 699999999 {
		t.Errorf("Fixed(0.7): rand/v2 Int64N(1e9) = %d, want 699999999", got)
	}
}

func TestV1Floats(t *testing.T) {
	for _, x := range values {
		r := mathrand.New(source(x))
		want := floorFloat(x, 63)
		if x >= 0x1p-11 && want != x {
			t.Fatalf("test helper: floorFloat(%v, 63) = %v, want x", x, want)
		}
		if got := r.Float64(); got != want {
			t.Errorf("%s: math/rand Float64() = %v, want %v", source(x), got, want)
		}
		want32 := float32(x)
		if want32 == 1 {
			want32 = math.Nextafter32(1, 0)
		}
		if got := r.Float32(); got != want32 {
			t.Errorf("%s: math/rand Float32() = %v, want %v", source(x), got, want32)
		}
	}
}

func TestV1Bits(t *testing.T) {
	for _, x := range values {
		r := mathrand.New(source(x))
		for _, tc := range []struct {
			call string
			got  uint64
			want uint64
		}{
			{"Int63()", uint64(r.Int63()), scaled(x, 63)},
			{"Int31()", uint64(r.Int31()), scaled(x, 31)},
			{"Uint32()", uint64(r.Uint32()), scaled(x, 32)},
			{"Int()", uint64(r.Int()), scaled(x, bits.UintSize-1)},
			{"Uint64()", r.Uint64(), scaled(x, 64)},
		} {
			if tc.got != tc.want {
				t.Errorf("%s: math/rand %s = %#x, want %#x", source(x), tc.call, tc.got, tc.want)
			}
		}
	}
}

func TestV1Intn(t *testing.T) {
	// From 0.5 up every value draws the words Max draws, in a search of
	// up to 38,543 draws: 0.5 and Max, the ends of that half, stand for it.
	for _, x := range []float64{0, 0.3, 0.5, maxValue} {
		t.Run(source(x).String(), func(t *testing.T) {
			r := mathrand.New(source(x))
			for _, n := range ns63 {
				if pow2(n) {
					want := ends(x, n)
					if got := uint64(r.Int63n(int64(n))); got != want {
						t.Errorf("Int63n(%d) = %d, want %d", n, got, want)
					}
					if n <= math.MaxInt {
						if got := uint64(r.Intn(int(n))); got != want {
							t.Errorf("Intn(%d) = %d, want %d", n, got, want)
						}
					}
					if n <= math.MaxInt32 {
						if got := uint64(r.Int31n(int32(n))); got != want {
							t.Errorf("Int31n(%d) = %d, want %d", n, got, want)
						}
					}
					continue
				}
				checkModulo(t, fmt.Sprintf("Int63n(%d)", n), x, n, uint64(r.Int63n(int64(n))), 63)
				k := uint(63)
				if n <= math.MaxInt32 {
					k = 31
					checkModulo(t, fmt.Sprintf("Int31n(%d)", n), x, n, uint64(r.Int31n(int32(n))), 31)
				}
				if n <= math.MaxInt {
					checkModulo(t, fmt.Sprintf("Intn(%d)", n), x, n, uint64(r.Intn(int(n))), k)
				}
			}
		})
	}
}

// The examples the package documentation quotes.
func TestV1IntnExamples(t *testing.T) {
	r := mathrand.New(source(maxValue))
	for _, tc := range []struct {
		call      string
		got, want int64
	}{
		{"Intn(10)", int64(r.Intn(10)), 9},
		{"Intn(1000)", int64(r.Intn(1000)), 999},
		{"Intn(2049)", int64(r.Intn(2049)), 2048},
		{"Int31n(1<<30+1)", int64(r.Int31n(1<<30 + 1)), 1 << 30},
		{"Int63n(1e9)", r.Int63n(1e9), 999366176},
	} {
		if tc.got != tc.want {
			t.Errorf("Max: math/rand %s = %d, want %d", tc.call, tc.got, tc.want)
		}
	}
}

// ExpFloat64 and NormFloat64 have no edges; they must return at once, grow
// with x, and be 0 at Min (Exp) and at 0.5 (Norm).
func TestExpNorm(t *testing.T) {
	grid := []float64{0, 0x1p-60, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9999, maxValue}
	type method struct {
		name string
		call func(x float64) float64
		zero float64 // the x it returns 0 for
	}
	for _, m := range []method{
		{"rand/v2 ExpFloat64", func(x float64) float64 { return randv2.New(source(x)).ExpFloat64() }, 0},
		{"rand/v2 NormFloat64", func(x float64) float64 { return randv2.New(source(x)).NormFloat64() }, 0.5},
		{"math/rand ExpFloat64", func(x float64) float64 { return mathrand.New(source(x)).ExpFloat64() }, 0},
		{"math/rand NormFloat64", func(x float64) float64 { return mathrand.New(source(x)).NormFloat64() }, 0.5},
	} {
		t.Run(m.name, func(t *testing.T) {
			prev := math.Inf(-1)
			for _, x := range grid {
				got := m.call(x)
				if math.IsInf(got, 0) || math.IsNaN(got) || got < prev {
					t.Errorf("%s with %s = %v, want finite and at least %v (its value at the x before)", m.name, source(x), got, prev)
				}
				if x == m.zero && got != 0 {
					t.Errorf("%s with %s = %v, want 0", m.name, source(x), got)
				}
				prev = got
			}
		})
	}
	if e, n := randv2.New(source(maxValue)).ExpFloat64(), randv2.New(source(maxValue)).NormFloat64(); math.Abs(e-4.3486) > 1e-4 || math.Abs(n-1.8565) > 1e-4 {
		t.Errorf("Max: rand/v2 ExpFloat64() = %v, NormFloat64() = %v, want ≈4.3486 and ≈1.8565", e, n)
	}
}

func TestPermAndShuffle(t *testing.T) {
	isPerm := func(p []int) bool {
		seen := make([]bool, len(p))
		for _, v := range p {
			if v < 0 || v >= len(p) || seen[v] {
				return false
			}
			seen[v] = true
		}
		return true
	}
	for _, x := range values {
		for _, perm := range []struct {
			name string
			f    func() []int
		}{
			{"rand/v2 Perm(7)", func() []int { return randv2.New(source(x)).Perm(7) }},
			{"math/rand Perm(7)", func() []int { return mathrand.New(source(x)).Perm(7) }},
		} {
			got, again := perm.f(), perm.f()
			if !isPerm(got) || fmt.Sprint(got) != fmt.Sprint(again) {
				t.Errorf("%s with %s = %v, then %v; want the same permutation of 0..6", perm.name, source(x), got, again)
			}
		}
	}
}
