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
// the bits that make the method called return its image of x; the package
// documentation lists what each method returns. A Source made by [Seeded]
// is a plain pseudo-random generator.
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
	pcg    *randv2.PCG // Seeded only
}

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
// beyond; see the package documentation). Its String is "Max".
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
	s.pos, s.hasCur, s.st = 0, false, state{}
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

func (s *Source) draw(at site, viaInt63 bool) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
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
