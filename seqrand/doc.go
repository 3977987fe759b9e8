// Package seqrand provides deterministic random sources for testing retry
// code: endpoint sources that pin both edges of every jitter window, fixed
// values and sequences that pin any point inside one, and a seeded source
// that checks a distribution reproducibly.
//
// # Sources
//
//	Min()            every draw is 0, the bottom of every range
//	Max()            every draw is 1-2⁻⁵³, the largest float64 below 1: the top of every range
//	Endpoints()      Min() and Max(), for table-driven tests
//	Fixed(x)         every draw is x, 0 ≤ x < 1
//	Sequence(xs...)  the draws are xs in order; one draw more panics (ErrExhausted)
//	Seeded(seed)     pseudo-random: math/rand/v2's PCG seeded with (seed, 0)
//
// Values outside [0, 1), NaN included, panic with a message that names them.
// No source returns 1, because no random source of the standard library does:
// at Max, code that computes time.Duration(r*float64(c)) gets c-1ns, the top
// of a window [0, c). A formula that rounds, such as 0.5+r/2 in float64, can
// still reach its upper bound exactly; a seam documented as [0, 1] cannot be
// pinned to 1 — Max comes within 2⁻⁵³ of it, so check its top window with a
// nanosecond of tolerance
// ([github.com/retrykit/retrykit/retrytest.WithTolerance]).
//
// Retry code takes its randomness in one of three shapes, and a [*Source]
// fits each of them:
//
//	random func() float64              src.Float64
//	*rand.Rand of math/rand/v2         randv2.New(src)
//	*rand.Rand of math/rand            mathrand.New(src)
//
// Two runs, one at Min and one at Max, pin both edges of every window of a
// jittered ladder:
//
//	for _, src := range seqrand.Endpoints() {
//		t.Run(src.String(), func(t *testing.T) {
//			rec := recorder.New()
//			err := withRetry(op, rec.Sleep, src.Float64)
//			// check rec's delays against their windows
//		})
//	}
//
// # What each method returns
//
// Every draw has a value x: 0 for Min, 1-2⁻⁵³ for Max, x for Fixed(x), the
// next value of a Sequence. A draw through a *rand.Rand returns the bits
// that make the method called return its image of x:
//
//	method                                  returns                             Min        Max
//	src.Float64()                           x                                   0          1-2⁻⁵³
//	math/rand/v2 (*Rand).
//	  Float64                               ⌊x·2⁵³⌋/2⁵³                         0          1-2⁻⁵³
//	  Float32                               ⌊x·2²⁴⌋/2²⁴                         0          1-2⁻²⁴
//	  IntN, Int64N, Int32N, UintN, Uint32N,
//	  Uint64N (n not a power of two)        ⌊x·n⌋                               0          n-1
//	  the same, n a power of two            0 if x < 0.5, else n-1              0          n-1
//	  Uint64, Uint                          ⌊x·2⁶⁴⌋                             0          2⁶⁴-1
//	  Int64, Int                            ⌊x·2⁶³⌋                             0          2⁶³-1
//	  Uint32                                ⌊x·2³²⌋                             0          2³²-1
//	  Int32                                 ⌊x·2³¹⌋                             0          2³¹-1
//	  ExpFloat64                            ⌊x·2³¹⌋·w₀                          0          ≈ 4.3486
//	  NormFloat64                           ⌊(2x-1)·2³⁰⌋·v₀                     ≈ -1.8565  ≈ 1.8565
//	math/rand (*Rand).
//	  Float64                               x                                   0          1-2⁻⁵³
//	  Float32                               float32(x), at most 1-2⁻²⁴          0          1-2⁻²⁴
//	  Intn, Int31n, Int63n                  0 if x < 0.5, else n-1 (see below)  0          n-1 (see below)
//	  Uint64                                ⌊x·2⁶⁴⌋                             0          2⁶⁴-1
//	  Int63, Int                            ⌊x·2⁶³⌋                             0          2⁶³-1
//	  Uint32                                ⌊x·2³²⌋                             0          2³²-1
//	  Int31                                 ⌊x·2³¹⌋                             0          2³¹-1
//	  ExpFloat64, NormFloat64               as in math/rand/v2, within 256·w₀ and 128·v₀
//	  Perm, Shuffle, Read                   deterministic; a value per element (Read: per 7 bytes)
//
// Where int is 32 bits, Int returns ⌊x·2³¹⌋ and Uint ⌊x·2³²⌋. (w₀ ≈ 2.02e-9
// and v₀ ≈ 1.73e-9 are the widths of the first strip of the ziggurats
// behind ExpFloat64 and NormFloat64.)
//
// Max stands for the top of every range: every integer method returns its
// largest value, even where ⌊(1-2⁻⁵³)·n⌋ would be less (n > 2⁵³).
// Fixed(math.Nextafter(1, 0)) is the same source as Max.
//
// Precision:
//
//   - ⌊x·n⌋ is the floor of the exact product of the float64 x and n, not of
//     the rounded float64 product. Fixed(0.7) holds 0.69999999999999995559…,
//     so IntN(10) returns 6, although int(0.7*10) is 7. This is exact for
//     every x ≥ 2⁻¹¹ and every n; a smaller x is first truncated to a
//     multiple of 2⁻⁶⁴.
//   - math/rand/v2's Float64 returns multiples of 2⁻⁵³ only, so it returns x
//     exactly for every x in [0.5, 1) and for any multiple of 2⁻⁵³ (0, 0.25,
//     0.375 …); any other x is rounded down, by less than 2⁻⁵³ (0.3 gives
//     0.29999999999999993). Float32 likewise returns multiples of 2⁻²⁴.
//   - math/rand's Float64 returns x exactly for every x ≥ 2⁻¹¹ (a smaller x
//     is rounded down to a multiple of 2⁻⁶³); its Float32 is float32(x),
//     rounded to nearest, but never 1.
//   - math/rand/v2 takes IntN(2ᵏ) from the low k bits of a draw, and
//     math/rand takes Intn(n) as the draw's remainder modulo n. No single
//     draw carries ⌊x·n⌋ for every n in its low bits or its remainder, so
//     there only the ends are served: x below 0.5 gives 0, x from 0.5 up
//     gives n-1. This is exact for n ≤ 2 and for Min and Max.
//   - math/rand's Intn, Int31n and Int63n from 0.5 up return n-1 exactly
//     when 2ᵏ mod n ≤ 2048, with k = 31 for Int31n and for Intn with
//     n < 2³¹, and k = 63 otherwise; that includes every n ≤ 2049, Intn(10),
//     Intn(100) and Intn(1000). For other n they return n-1-δ with
//     0 ≤ δ < (2ᵏ mod n)/1024 < n/1024: Int63n(1e9) returns 999366176,
//     0.06% below n-1. See "How it works" for why.
//   - ExpFloat64 and NormFloat64 have no edges. They return at once, grow
//     with x, and are 0 at Min (ExpFloat64) and at 0.5 (NormFloat64); they
//     are not quantile functions.
//
// Each call of a *rand.Rand method takes one value of a Sequence (Perm and
// Shuffle one per element, math/rand's Read one per 7 bytes); the retries of
// a rejection loop reuse the value they retry, so a Sequence of three values
// serves exactly three calls of IntN, however often IntN's loop draws. No
// method of either *rand.Rand ever hangs on a Source: each call draws at most
// twice (per element, for Perm and Shuffle), except math/rand's Intn,
// Int31n and Int63n, which for x ≥ 0.5 may draw up to 38,543 times (Int63n;
// 15,818 for Int31n), some 10ms.
//
// # How it works
//
// No fixed bit pattern serves every method, because the methods read
// different bits: math/rand/v2's Float64 the low 53 bits of a Uint64, its
// IntN the high bits through Lemire's multiply, with a retry while the low
// word of the product is below 2⁶⁴ mod n; math/rand's Float64 Int63/2⁶³
// with a retry when that rounds to 1, its Intn the remainder modulo n with
// a retry while the draw exceeds the largest multiple of n (minus one). Two
// cases show that any fixed pattern, or any stream that ignores who draws,
// fails:
//
//   - Min through math/rand/v2: for Float64 to return 0, every draw must
//     have its low 53 bits clear; then IntN(6144) rejects every draw, for
//     ever (6144·X ≡ 0 mod 2⁶⁴, and 2⁶⁴ mod 6144 > 0). The usual answer,
//     all bits clear, hangs IntN(3) already.
//   - Max through math/rand: for Float64 to return 1-2⁻⁵³, every draw must
//     be above 2⁶³-1536 (from 2⁶³-512 up, Float64 rounds it to 1 and draws
//     again); then Int31n(3) sees 2³¹-1 and rejects it for ever, and Float32
//     rounds 1-2⁻⁵³ up to 1 and retries for ever.
//
// So a Source looks at who draws. A draw through Uint64 or Int63 reads the
// call stack (runtime.Callers, with the answer cached per call site: a few
// hundred nanoseconds a draw) to find the math/rand or math/rand/v2
// method that asked, through any Source types wrapped around the *Source,
// and returns that method's bits. In a method with a rejection loop it also
// tells the first draw from a retry by the line that called it. Those lines
// are learned, not written down: at the first draw, seqrand runs each loop
// once on a probe source. A Go release that moves them is still served; one
// that restructures them makes draws at unknown lines fall back to patterns
// every loop accepts at once, so even then nothing hangs (and this
// package's tests fail, to flag it).
//
// The retries: Lemire's loop (math/rand/v2's IntN family, and math/rand's
// Shuffle) rejects a draw X only when X·n mod 2⁶⁴ < n; the retry returns
// X+1, which has the same high word, hence the same result, and is always
// accepted. math/rand's modulo loops reject v when v > max, where
// max ≡ n-1 (mod n): for x ≥ 0.5 the first draw is the top of the range and
// each retry steps down, by 1 while fewer than 2048 steps were taken (so the
// first accepted draw is max itself, giving n-1), then by 1/1024 of the
// distance so far; half the range is accepted by every n, which bounds the
// search. The search lives in the Source, so it is exact when one *rand.Rand
// draws from the Source at a time; if several *rand.Rand values share one
// Source and their loops interleave, a search can end lower (never above
// n-1, never hanging). math/rand/v2's loops and every Float64 are exact
// however draws interleave.
//
// Seeded sources do none of this; they are plain PCG generators.
//
// # Library globals
//
// Retry libraries that draw from the package-level functions of math/rand
// (avast/retry-go v4, cenkalti/backoff v4) cannot take a Source. Their
// jitter can still be made reproducible: put
//
//	//go:debug randseednop=0
//
// above the package clause of one _test.go file of the package (it applies
// to the whole test binary), and call [SeedMathRand](t, seed). Since Go
// 1.24, rand.Seed does nothing without that directive; SeedMathRand fails
// the test, saying so, rather than let it run unpinned. The values are then
// the sequence of mathrand.NewSource(seed): reproducible, but not chosen, so
// assert windows. The math/rand/v2 global (cenkalti/backoff v5 and later,
// sethvargo/go-retry, failsafe-go, grpc) cannot be seeded at all: assert its
// delays against their windows with
// [github.com/retrykit/retrykit/retrytest] or
// [github.com/retrykit/retrykit/matchers].
//
// # Concurrency
//
// A Source is safe for concurrent use; see the caveat on interleaved
// math/rand searches above. A *rand.Rand of either package is not, so guard
// a shared one with a mutex, as always.
package seqrand
