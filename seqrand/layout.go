package seqrand

import (
	"math"
	"math/bits"
)

// below1 is the largest float64 below 1, the value of Max. It stands for
// the top of every range: it sets every bit a method reads.
const below1 = 1 - 0x1p-53

// Search parameters for math/rand's Int63n and Int31n on a value of at
// least 0.5. Their retry draws step down from the top of the range: by 1
// while the step count is below 2^(searchShift+1), then by 1/2^searchShift
// of the distance covered, and never past half the range, which every n
// accepts.
const searchShift = 10

// state is what a Source remembers between the draws of one method call:
// how many retries its rejection loop has asked for, and where the search
// of math/rand's modulo loops stands.
type state struct {
	retries int
	offset  uint64
	repeat  bool // the source repeats one value, so a retry is always of it
}

// word returns the bits a draw at site s must return for the value x: a
// 64-bit word for Uint64, or a word below 2⁶³ for Int63 (every math/rand
// site but v1Uint64 is reached through Int63). viaInt63 tells which method
// of the Source was called, for draws not made by math/rand.
func word(s site, x float64, st *state, viaInt63 bool) uint64 {
	top := x >= 0.5 // rounds x to the nearer end of the range
	switch s {
	case direct:
		if viaInt63 {
			return fixed64(x) >> 1
		}
		return fixed64(x)

	case v2Top, v2First:
		return fixed64(x)
	case v2Low63:
		return fixed64(x) >> 1
	case v2Int:
		return fixed64(x) >> (65 - bits.UintSize)
	case v2Uint:
		return fixed64(x) >> (64 - bits.UintSize)
	case v2Float64:
		return fixed64(x) >> 11
	case v2Float32:
		return fixed64(x) >> 40 << 32
	case v2Mask:
		return ends(top, math.MaxUint64, 0)
	case v2Retry:
		// The first draw X was rejected: X·n mod 2⁶⁴ < n. Then (X+1)·n
		// has the same high word and a low word of at least n, which
		// every n accepts.
		if f := fixed64(x); (st.retries == 1 || st.repeat) && f < math.MaxUint64 {
			return f + 1
		}
		return math.MaxUint64
	case v2Safe:
		return ends(top, math.MaxUint64, 1)
	case v2Exp:
		// Strip 0 (bits 32..39 clear), whose fast path accepts j < 2³¹.
		return uint64(x * 0x1p31)
	case v2Norm:
		// Strip 0 (bits 32..38 clear), whose fast path accepts |j| ≤ 2³⁰.
		return uint64(uint32(int32(math.Floor((2*x - 1) * 0x1p30))))
	case v2Unknown:
		return unknown64(top, st.retries)

	case v1Bits:
		return fixed64(x) >> 1
	case v1Int:
		return fixed64(x) >> (65 - bits.UintSize)
	case v1Uint64:
		return fixed64(x)
	case v1Float64:
		return uint64(x * 0x1p63)
	case v1Float32:
		f := float32(x)
		if f == 1 {
			f = math.Nextafter32(1, 0)
		}
		return uint64(float64(f) * 0x1p63)
	case v1Mask, v1First:
		return ends(top, 1<<63-1, 0)
	case v1Retry63:
		if !top {
			return 0
		}
		return 1<<63 - 1 - search(st, 1<<62-1)
	case v1Retry31:
		if !top {
			return 0
		}
		return (1<<31 - 1 - search(st, 1<<30-1)) << 32
	case v1Safe:
		return ends(top, 1<<62, 0)
	case v1LemireFirst:
		return fixed64(x) >> 32 << 31
	case v1LemireRetry:
		if u := fixed64(x) >> 32; (st.retries == 1 || st.repeat) && u < math.MaxUint32 {
			return (u + 1) << 31
		}
		return math.MaxUint32 << 31
	case v1LemireSafe:
		return ends(top, math.MaxUint32<<31, 1<<31)
	case v1Exp:
		// Uint32 = j in strip 0 (its low 8 bits clear), j < 2³¹.
		return uint64(uint32(x*0x1p31)&^0xFF) << 31
	case v1Norm:
		// Uint32 = j in strip 0 (its low 7 bits clear), |j| ≤ 2³⁰.
		return uint64(uint32(int32(math.Floor((2*x-1)*0x1p30))&^0x7F)) << 31
	case v1Unknown63, v1Unknown31, v1Unknown32:
		if !viaInt63 {
			return unknown64(top, st.retries)
		}
		// The k-th draw at a place (k = st.retries). The bottom alternates
		// 0, which only int31n rejects, and 2³¹ (Uint32 1), which every
		// loop accepts but may send a ziggurat to a strip test. The top
		// alternates 2⁶³-1, which int31n accepts, and the steps of the
		// modulo loops' search, in the units the reader sees, which end
		// every other loop: Float64's within 1,024 draws, Float32's within
		// 43,000.
		switch {
		case !top && st.retries%2 == 0:
			return 0
		case !top:
			return 1 << 31
		case st.retries%2 == 0:
			return 1<<63 - 1
		case s == v1Unknown31:
			return (1<<31 - 1 - search(st, 1<<30-1)) << 32
		case s == v1Unknown32:
			return (1<<32 - 1 - search(st, 1<<31-1)) << 31
		}
		return 1<<63 - 1 - search(st, 1<<62-1)
	}
	panic("seqrand: internal error: unknown site")
}

// fixed64 returns x as a 64-bit binary fraction, ⌊x·2⁶⁴⌋, except that
// below1 sets every bit.
func fixed64(x float64) uint64 {
	if x == below1 {
		return math.MaxUint64
	}
	return uint64(x * 0x1p64)
}

// zigTop is a word with every high bit set that math/rand/v2's ExpFloat64
// accepts at once: its strip is the last, 255 (bits 32..39 set), and its
// low word is below that strip's bound (0xe6da6ecf).
const zigTop = math.MaxUint64 &^ (1 << 29)

// unknown64 is the 64-bit word of a draw at an unknown site, the k-th (from
// 0) at the same place. The first draw is 0 at the bottom and every bit set
// at the top, each end of every reader; later ones step to words Lemire's
// loop accepts (1 and 2⁶⁴-1) and, at the top, alternate with zigTop for the
// ziggurat. So every loop of math/rand/v2 ends within three draws.
func unknown64(top bool, k int) uint64 {
	switch {
	case !top && k == 0:
		return 0
	case !top:
		return 1
	case k%2 == 0:
		return math.MaxUint64
	}
	return zigTop
}

func ends(top bool, hi, lo uint64) uint64 {
	if top {
		return hi
	}
	return lo
}

// search returns how far below the top of its range the next retry of
// math/rand's Int63n or Int31n should draw. The loop rejects a draw v when
// v > max, where max = top - (2^k mod n) ≡ n-1 (mod n); a draw t below the
// top is accepted once t ≥ 2^k mod n, and then returns n-1-(t - 2^k mod n).
// Stepping t by 1 finds n-1 exactly; past 2^(searchShift+1) the steps grow
// so the search ends within about 40,000 draws, at most 1/2^searchShift·n
// below n-1. limit, half the range, is accepted by every n.
func search(st *state, limit uint64) uint64 {
	if st.retries == 1 {
		st.offset = 1
	} else {
		st.offset += max(1, st.offset>>searchShift)
	}
	st.offset = min(st.offset, limit)
	return st.offset
}
