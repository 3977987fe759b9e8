// Package seqrand provides deterministic random sources for testing retry
// code: endpoint sources that pin both edges of every jitter window, fixed
// values and sequences that pin any point inside one, and a seeded source
// that checks a distribution reproducibly.
//
//	Min()            every draw is 0, the bottom of every range
//	Max()            every draw is 1-2⁻⁵³, the largest float64 below 1: the top of every range
//	Endpoints()      Min() and Max(), for table-driven tests
//	Fixed(x)         every draw is x, 0 ≤ x < 1
//	Sequence(xs...)  the draws are xs in order; one draw more panics (ErrExhausted)
//	Seeded(seed)     pseudo-random: math/rand/v2's PCG seeded with (seed, 0)
//
// Retry code takes its randomness in one of three shapes, and a [*Source]
// fits each: a func() float64 (src.Float64), math/rand/v2's *rand.Rand
// (randv2.New(src)) and math/rand's (mathrand.New(src)). Two runs, one at
// Min and one at Max, pin both edges of every window of a jittered ladder:
//
//	for _, src := range seqrand.Endpoints() {
//		t.Run(src.String(), func(t *testing.T) {
//			rec := recorder.New()
//			err := withRetry(op, rec.Sleep, src.Float64)
//			retrytest.AssertDelaysWithin(t, rec, policy.Windows()...)
//		})
//	}
//
// # The rules
//
//   - Values outside [0, 1), NaN included, panic, naming the value. No
//     source returns 1, as no source of the standard library does: at Max,
//     time.Duration(r*float64(c)) gives c-1ns, the top of [0, c) — declare
//     such a ladder with retrytest.Policy's OpenTop.
//   - Through a *rand.Rand, every method returns its image of the draw:
//     IntN(n) gives 0 at Min and n-1 at Max, Float64 gives the draw itself,
//     Uint64 the top of its range at Max. The Source type's documentation
//     lists every method, with its precision.
//   - Each call of a *rand.Rand method takes one value of a Sequence; the
//     retries of a rejection loop reuse it.
//   - No method ever hangs on a Source, on a later Go release either. Should
//     one rename or add a function of math/rand or math/rand/v2, a draw
//     from it is served as the method that called it, and returns at Min and
//     Max what it returns today but in the cases the Source type lists
//     (among them ExpFloat64 and NormFloat64, which have no edges, and a
//     function called by no method seqrand knows, called again from one
//     line). Should one
//     restructure a rejection loop so that seqrand cannot learn its lines,
//     the first draw by a method with such a loop (IntN, Intn, Int63n,
//     Shuffle …) panics, naming the Go release and the ways out; Float64
//     and the other methods go on.
//   - Seeded sources are plain PCG generators: use them for distributions,
//     the others for edges.
//
// # How a Source knows the method
//
// No fixed bit pattern serves every method, so a draw through a *rand.Rand
// reads the call stack, with the answer cached per call site, to see which
// method asked, and returns that method's bits. What Go does not promise
// is checked before it is trusted: the lines of the rejection loops are
// learned at the first draw that needs them, and a function seqrand does
// not know by name gets a fallback no loop refuses. The reasons, and the
// designs set aside, are in docs/design.md ("Why a seqrand Source looks at
// its caller").
//
// # Library globals
//
// Retry libraries that draw from the package-level functions of math/rand
// (avast/retry-go v4, cenkalti/backoff v4) cannot take a Source. Put
//
//	//go:debug randseednop=0
//
// above the package clause of one _test.go file of the package and call
// [SeedMathRand](seed): the draws are then reproducible, though not
// chosen, so assert windows. The math/rand/v2 global (cenkalti/backoff v5,
// sethvargo/go-retry, failsafe-go, grpc) cannot be seeded at all: assert
// its delays against their windows.
//
// A Source is safe for concurrent use; a *rand.Rand of either package is
// not, so guard a shared one with a mutex.
package seqrand
