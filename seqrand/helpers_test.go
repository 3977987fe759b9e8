package seqrand_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// maxValue is the value of seqrand.Max: the largest float64 below 1.
var maxValue = math.Nextafter(1, 0)

// values are the draws the tables test: both ends, tiny values below 2⁻¹¹,
// values that float64 cannot hold exactly (0.1, 0.3, 0.7), dyadic ones, and
// values just below 1.
var values = []float64{0, 0x1p-60, 3e-5, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9999, 1 - 0x1p-52, maxValue}

// source returns the Source for x: Min and Max for the ends, Fixed(x)
// otherwise.
func source(x float64) *seqrand.Source {
	switch x {
	case 0:
		return seqrand.Min()
	case maxValue:
		return seqrand.Max()
	}
	return seqrand.Fixed(x)
}

// ns are the bounds the integer methods are tested with: powers of two and
// their neighbours, n where 2³¹ mod n or 2⁶³ mod n is 0, small or large,
// and the awkward values the brief names (3, 1e9, 2³⁰+1, 2³¹-1).
var ns32 = []uint64{1, 2, 3, 4, 5, 6, 7, 10, 100, 1000, 1024, 1025, 2047, 2049, 3000, 6144, 10000,
	65535, 65536, 65537, 1e6, 1e9, 1<<30 - 1, 1 << 30, 1<<30 + 1, 1<<31 - 1}

var ns63 = append(ns32[:len(ns32):len(ns32)], 1<<31, 1<<32+1, 3<<32, 1e12, 1e18, 1<<62, 1<<62+1, 1<<63-1)

var ns64 = append(ns63[:len(ns63):len(ns63)], 1<<63, 1<<63+1, math.MaxUint64)

func pow2(n uint64) bool { return n&(n-1) == 0 }

// bigFixed is ⌊x·2⁶⁴⌋, the 64-bit binary fraction of x, or 2⁶⁴-1 for Max,
// computed with math/big.
func bigFixed(x float64) *big.Int {
	if x == maxValue {
		return new(big.Int).SetUint64(math.MaxUint64)
	}
	f := new(big.Float).SetPrec(200).SetFloat64(x)
	f.SetMantExp(f, 64)
	i, _ := f.Int(nil)
	return i
}

// scaled is ⌊x·2^bits⌋ (2^bits-1 for Max): the high bits of bigFixed.
func scaled(x float64, bits uint) uint64 {
	return new(big.Int).Rsh(bigFixed(x), 64-bits).Uint64()
}

// lemire is ⌊X·n/2⁶⁴⌋ with X = bigFixed(x): what math/rand/v2's IntN
// returns for a draw of X.
func lemire(x float64, n uint64) uint64 {
	p := new(big.Int).Mul(bigFixed(x), new(big.Int).SetUint64(n))
	return p.Rsh(p, 64).Uint64()
}

// floorTimes is ⌊x·n⌋ of the exact product.
func floorTimes(x float64, n uint64) uint64 {
	r := new(big.Rat).SetFloat64(x)
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).SetUint64(n)))
	return new(big.Int).Quo(r.Num(), r.Denom()).Uint64()
}

// floorFloat is ⌊x·2^bits⌋/2^bits as a float64.
func floorFloat(x float64, bits int) float64 {
	return math.Floor(math.Ldexp(x, bits)) / math.Ldexp(1, bits)
}

// ends is what the methods that cannot carry x return: 0 below 0.5, n-1
// from 0.5 up.
func ends(x float64, n uint64) uint64 {
	if x < 0.5 {
		return 0
	}
	return n - 1
}

// checkModulo checks a result of math/rand's Intn, Int31n or Int63n for a
// draw of x: 0 below 0.5; from 0.5 up, n-1 when 2^k mod n ≤ 2048, and
// otherwise n-1-δ with δ < (2^k mod n)/1024, k = 31 for Int31n and 63 for
// Int63n.
func checkModulo(t *testing.T, call string, x float64, n, got uint64, k uint) {
	t.Helper()
	if x < 0.5 {
		if got != 0 {
			t.Errorf("%s = %d, want 0", call, got)
		}
		return
	}
	r := (uint64(1) << k) % n
	if got > n-1 {
		t.Fatalf("%s = %d, want at most n-1 = %d", call, got, n-1)
	}
	delta := n - 1 - got
	switch {
	case r <= 2048 && delta != 0:
		t.Errorf("%s = %d, want n-1 = %d (2^%d mod n = %d)", call, got, n-1, k, r)
	case r > 2048 && delta >= r>>10:
		t.Errorf("%s = %d = n-1-%d, want within (2^%d mod n)/1024 = %d of n-1", call, got, delta, k, r>>10)
	}
}
