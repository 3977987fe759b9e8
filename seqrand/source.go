package seqrand

import (
	"errors"
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"strconv"
	"strings"
	"sync"
)

// Source is a deterministic random source. It serves every shape retry code
// takes its randomness in: the method value src.Float64 is a
// func() float64; *Source is a [math/rand/v2.Source], so randv2.New(src)
// works; and it is a [math/rand.Source64], so mathrand.New(src) works.
//
// A Source made by [Fixed], [Min], [Max] or [Sequence] gives each draw a
// value x in [0, 1) and, when the draw comes through a *rand.Rand, returns
// the bits that make the method called return its image of x, as follows.
// A Source made by [Seeded] is a plain pseudo-random generator.
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
//     0.06% below n-1: their loops reject the top of the range, and
//     seqrand searches down from it (docs/design.md has why).
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
// Functions seqrand does not know. seqrand knows by name every function of
// math/rand and math/rand/v2 that draws in Go 1.26. Should a later release
// rename one or add one, a draw from it is served, in this order:
//
//   - by the lines calibration learned, if it holds a rejection loop that
//     calibration runs (a renamed uint64n, int31n, Int63n or Int31n): as
//     before, at every value;
//   - as the nearest method above it that seqrand knows, if there is one:
//     as before, at every value, but for the methods with a rejection loop
//     (IntN, Intn, Int63n, Perm, Shuffle …), which then get words their
//     loops accept at once, as at any line calibration did not see: 0
//     below 0.5 (but 1 through math/rand/v2 for n a power of two above 1),
//     and n-1 from 0.5 up (but through math/rand's modulo loops 2⁶² mod n,
//     or 2³⁰ mod n for Int31n and Intn with n < 2³¹);
//   - else, called by no method seqrand knows, by the ends only: the word 0
//     below 0.5 and every bit set (2⁶³-1 through Int63) from 0.5 up, the
//     ends of every method, so that one draw returns at Min and Max what the
//     method returns today. A later draw from the same place in math/rand,
//     for the same caller outside it — a rejection loop's retry, or your
//     code calling again from the same line — steps on to words that end
//     every loop of both packages: 1 instead of 0 (math/rand: 2³¹, every
//     other draw); at the top, every bit but bit 29 every other draw
//     (math/rand/v2), or, every other draw, a step down from 2⁶³-1 as
//     Int63n's search takes, in the bits the method reads (math/rand). So a
//     method that draws several times from one place (Read), or one called
//     again from the same line, may return values near the end but not at
//     it. Each such draw takes a value of a Sequence, retries included;
//     Seed starts the steps afresh. ExpFloat64 and NormFloat64, which have
//     no edges, return other values when their own function is unknown.
//
// None of these hangs: every loop of both packages ends within 200,000
// draws of them.
//
// A Source is safe for concurrent use. Values are handed out in the order
// draws take its lock; a rejection loop's retry reuses the value of the
// draw just before it, so goroutines that share a [Sequence] should not
// interleave draws if each must get particular values.
type Source struct {
	mu     sync.Mutex
	name   string
	values []float64
	repeat bool // Fixed, Min, Max: values[0] forever
	pos    int  // the next value of a Sequence
	cur    float64
	hasCur bool // cur holds the value of the last draw that took one
	st     state
	unk    unknownCalls
	pcg    *randv2.PCG // Seeded only
}

// unknownCalls is what a Source remembers of the draws at unknown sites
// (functions seqrand does not know, called by no method it knows): a state
// per place in math/rand and caller outside it, whose retries count the
// draws made there. Each place keeps its own, so that draws from elsewhere,
// other goroutines' included, cannot hold a loop at its first word.
type unknownCalls map[string]*state

var (
	_ randv2.Source     = (*Source)(nil)
	_ mathrand.Source64 = (*Source)(nil)
)

// ErrExhausted is the error a [Sequence] panics with, wrapped, when the code
// under test draws more values than it was given. Test for it with
// errors.Is on the recovered value.
var ErrExhausted = errors.New("seqrand: sequence exhausted")

// Fixed returns a Source whose every draw is x. It panics if x is not in
// [0, 1) (NaN included), naming the value.
func Fixed(x float64) *Source {
	x = checked("Fixed", -1, x)
	return &Source{name: "Fixed(" + format(x) + ")", values: []float64{x}, repeat: true}
}

// Min returns a Source whose every draw is 0, the bottom of every range:
// Float64 returns 0 and IntN(n) returns 0 through every API. Its String is
// "Min".
func Min() *Source {
	s := Fixed(0)
	s.name = "Min"
	return s
}

// Max returns a Source whose every draw is the largest float64 below 1
// (1-2⁻⁵³, math.Nextafter(1, 0)), the top of every range: Float64 returns
// 1-2⁻⁵³, Float32 1-2⁻²⁴ and IntN(n) n-1 (through math/rand's Intn,
// Int31n and Int63n, n-1 for every n ≤ 2049 and within n/1024 of it
// beyond; see [Source]). Its String is "Max".
//
// Failure tables of code run at Max fill with values such as 1.499999998s:
// a delay drawn at Max is the top of its half-open window, [0s, 1.5s) say,
// less a nanosecond or two of float rounding, as the code's formula rounds.
// Read it as "the top of the window", and declare such a ladder with
// retrytest.Policy's OpenTop, so that its windows print as [0s, 1.5s).
func Max() *Source {
	s := Fixed(below1)
	s.name = "Max"
	return s
}

// Endpoints returns a new Min and a new Max source, for a table-driven
// test that pins both edges of every jitter window:
//
//	for _, src := range seqrand.Endpoints() {
//		t.Run(src.String(), func(t *testing.T) { … })
//	}
func Endpoints() []*Source {
	return []*Source{Min(), Max()}
}

// Sequence returns a Source whose draws are xs in order. Each call of a
// method of *rand.Rand takes one value (Perm and Shuffle take one per
// element, math/rand's Read one per 7 bytes); the retries of a rejection
// loop reuse the value they retry. When every value has been drawn, the
// next draw panics with an error that wraps [ErrExhausted] and names the
// source: a test that draws more often than it expects fails loudly rather
// than cycling. Rewind with [Source.Seed].
//
// Sequence panics if xs is empty or a value is not in [0, 1).
func Sequence(xs ...float64) *Source {
	if len(xs) == 0 {
		panic("seqrand: Sequence: no values; want at least one in [0, 1)")
	}
	vals := make([]float64, len(xs))
	for i, x := range xs {
		vals[i] = checked("Sequence", i, x)
	}
	return &Source{name: sequenceName(vals), values: vals}
}

// Seeded returns a pseudo-random Source with the stream of
// math/rand/v2's PCG seeded with (seed, 0): randv2.New(seqrand.Seeded(s))
// returns exactly what randv2.New(randv2.NewPCG(s, 0)) does. Its Float64
// takes the low 53 bits of one Uint64, as math/rand/v2's Float64 does, and
// its Int63 is a Uint64 shifted right by one. Use it to check a
// distribution reproducibly; it never reads the clock.
func Seeded(seed uint64) *Source {
	return &Source{name: "Seeded(" + strconv.FormatUint(seed, 10) + ")", pcg: randv2.NewPCG(seed, 0)}
}

// Float64 returns the next value: x itself, exactly, for a [Fixed], [Min],
// [Max] or [Sequence] source. Its method value fits a func() float64 seam.
func (s *Source) Float64() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pcg != nil {
		return float64(s.pcg.Uint64()<<11>>11) / (1 << 53)
	}
	s.st = state{}
	return s.next()
}

// Uint64 returns 64 random bits; it makes *Source a [math/rand/v2.Source].
// Called by a method of math/rand/v2's or math/rand's *Rand, it returns the
// bits that make that method return its image of the next value (see the
// package documentation); called directly, ⌊x·2⁶⁴⌋, or every bit set for
// [Max].
func (s *Source) Uint64() uint64 {
	if s.pcg != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.pcg.Uint64()
	}
	return s.draw(currentSite(), false)
}

// Int63 returns 63 random bits as a non-negative int64; with Uint64 and
// Seed it makes *Source a [math/rand.Source64]. Called by a method of
// math/rand's *Rand, it returns the bits that make that method return its
// image of the next value; called directly, ⌊x·2⁶³⌋, or 2⁶³-1 for [Max].
func (s *Source) Int63() int64 {
	if s.pcg != nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return int64(s.pcg.Uint64() >> 1)
	}
	return int64(s.draw(currentSite(), true))
}

// Seed rewinds a [Fixed], [Min], [Max] or [Sequence] source to its first
// value, ignoring seed; it reseeds a [Seeded] source with uint64(seed), as
// if it were Seeded(uint64(seed)). It completes [math/rand.Source], whose
// (*Rand).Seed calls it.
func (s *Source) Seed(seed int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pcg != nil {
		s.pcg.Seed(uint64(seed), 0)
		s.name = "Seeded(" + strconv.FormatUint(uint64(seed), 10) + ")"
		return
	}
	s.pos, s.hasCur, s.st, s.unk = 0, false, state{}, nil
}

// String names the source the way it was made, for t.Run and failure
// messages: "Min", "Max", "Fixed(0.25)", "Sequence(0, 0.5, 0.9)",
// "Seeded(42)". A Sequence of more than 6 values lists the first 5 and its
// length.
func (s *Source) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

func (s *Source) draw(w where, viaInt63 bool) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := w.s
	if at.unknown() {
		// Every draw takes a value; the words step on with the draws made
		// at the same place for the same caller (see word).
		if s.unk == nil {
			s.unk = unknownCalls{}
		}
		k := w.outer + " " + w.pos
		st := s.unk[k]
		if st == nil {
			st = &state{}
			s.unk[k] = st
		}
		b := word(at, s.next(), st, viaInt63)
		st.retries++
		return b
	}
	var x float64
	switch {
	case at.retry() && s.hasCur:
		s.st.retries++
		x = s.cur
	case at.retry():
		x = s.next()
		s.st = state{retries: 1}
	default:
		x = s.next()
		s.st = state{}
	}
	s.st.repeat = s.repeat
	return word(at, x, &s.st, viaInt63)
}

// next takes the next value. The caller holds s.mu.
func (s *Source) next() float64 {
	var x float64
	switch {
	case s.repeat:
		x = s.values[0]
	case s.pos == len(s.values):
		panic(&exhaustedError{name: s.name, n: len(s.values)})
	default:
		x = s.values[s.pos]
		s.pos++
	}
	s.cur, s.hasCur = x, true
	return x
}

type exhaustedError struct {
	name string
	n    int
}

func (e *exhaustedError) Error() string {
	return fmt.Sprintf("seqrand: %s: exhausted: the code under test asked for value %d of %d", e.name, e.n+1, e.n)
}

func (e *exhaustedError) Unwrap() error { return ErrExhausted }

// checked returns x, with -0 made +0, or panics if x is not in [0, 1). i is
// the index of x among several values, or -1.
func checked(fn string, i int, x float64) float64 {
	if x >= 0 && x < 1 {
		return x + 0
	}
	if i < 0 {
		panic(fmt.Sprintf("seqrand: %s: %s is outside [0, 1)", fn, format(x)))
	}
	panic(fmt.Sprintf("seqrand: %s: value %d (%s) is outside [0, 1)", fn, i+1, format(x)))
}

func format(x float64) string {
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func sequenceName(xs []float64) string {
	shown := xs
	if len(xs) > 6 {
		shown = xs[:5]
	}
	parts := make([]string, len(shown))
	for i, x := range shown {
		parts[i] = format(x)
	}
	if len(xs) > 6 {
		return fmt.Sprintf("Sequence(%s, … %d values)", strings.Join(parts, ", "), len(xs))
	}
	return "Sequence(" + strings.Join(parts, ", ") + ")"
}
