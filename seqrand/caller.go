package seqrand

// How a Source serves every method of math/rand and math/rand/v2.
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

import (
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"runtime"
	"strings"
	"sync"
)

// site is what one draw through Uint64 or Int63 has to serve: the method of
// math/rand or math/rand/v2 that asked for it and, inside a method with a
// rejection loop, whether this is the loop's first draw or a retry.
type site uint8

const (
	direct site = iota // no math/rand frame above: the plain bit pattern

	// math/rand/v2 (every method calls Uint64).
	v2Top     // Uint64, Uint32, Int32: the high bits
	v2Low63   // Int64: the low 63 bits
	v2Int     // Int: the low 63 bits, or 31 where int is 32 bits
	v2Uint    // Uint: all 64 bits, or the low 32 where uint is 32 bits
	v2Float64 // Float64: the low 53 bits
	v2Float32 // Float32: bits 32..55
	v2Mask    // uint64n, n a power of two: the low bits
	v2First   // uint64n, Lemire's multiply: the high bits
	v2Retry   // uint64n, Lemire's rejection retry
	v2Safe    // uint64n at a line calibration did not see
	v2Exp     // ExpFloat64
	v2Norm    // NormFloat64

	// math/rand (every method but Uint64 calls Int63).
	v1Bits        // Int63, Int31, Uint32, Read: the high bits
	v1Int         // Int: the low 63 bits of Int63, or 31 where int is 32 bits
	v1Uint64      // Uint64, which calls the source's Uint64
	v1Float64     // Float64: Int63/2⁶³
	v1Float32     // Float32: float32 of Float64
	v1Mask        // Int63n or Int31n, n a power of two
	v1First       // Int63n or Int31n, the modulo path's first draw
	v1Retry63     // Int63n, rejection retry
	v1Retry31     // Int31n, rejection retry
	v1Safe        // Int63n or Int31n at a line calibration did not see
	v1LemireFirst // int31n (Shuffle): Lemire's multiply on Uint32
	v1LemireRetry // int31n, rejection retry
	v1LemireSafe  // int31n at a line calibration did not see
	v1Exp         // ExpFloat64
	v1Norm        // NormFloat64
)

// retry reports whether a draw at s is a rejection loop asking again for
// the value it was just given, which does not consume a new value.
func (s site) retry() bool {
	switch s {
	case v2Retry, v1Retry63, v1Retry31, v1LemireRetry:
		return true
	}
	return false
}

// role is what a call line inside a method with a rejection loop does.
type role uint8

const (
	unknownLine role = iota
	maskLine         // the power-of-two path
	firstLine        // the loop's first draw
	retryLine        // the loop's retry
)

const (
	pkgV1 = "math/rand."
	pkgV2 = "math/rand/v2."
	// maxPCs is how deep a draw looks for math/rand: through this
	// package's own frames and any Source types that wrap a *Source.
	maxPCs = 16
)

// call is where a draw came from: the math/rand package, the method whose
// code made the call (after skipping the one-line accessors inlined into
// it), its line, and the outermost math/rand method (the one the user
// called).
type call struct {
	pkg  string // pkgV1, pkgV2, or "" when no math/rand method is involved
	fn   string // e.g. "uint64n", "Float64", "read"
	line int
	api  string // e.g. "IntN", "Float32"
}

// callerOf describes the math/rand call behind pcs, the program counters of
// a draw's stack (as runtime.Callers returns them): the innermost run of
// math/rand frames, wherever it is, so that a *Source wrapped in another
// Source type is still recognized. complete reports whether pcs decided the
// answer: the run ended within them, or the stack did.
func callerOf(pcs []uintptr, stackEnded bool) (c call, complete bool) {
	frames := runtime.CallersFrames(pcs)
	var chain []runtime.Frame
	for {
		f, more := frames.Next()
		switch {
		case strings.HasPrefix(f.Function, pkgV1) || strings.HasPrefix(f.Function, pkgV2):
			chain = append(chain, f)
		case len(chain) > 0:
			complete = true
			more = false
		}
		if !more {
			break
		}
	}
	complete = complete || stackEnded
	if len(chain) == 0 {
		return call{}, complete
	}
	pkg, _ := splitFunc(chain[0].Function)
	_, api := splitFunc(chain[len(chain)-1].Function)
	for i, f := range chain {
		p, fn := splitFunc(f.Function)
		if p != pkg || i == len(chain)-1 || !accessor(pkg, fn) {
			return call{pkg: pkg, fn: fn, line: f.Line, api: api}, complete
		}
	}
	return call{}, complete // unreachable: the last frame of the chain returns
}

// splitFunc splits "math/rand/v2.(*Rand).IntN" into pkgV2 and "IntN".
func splitFunc(function string) (pkg, name string) {
	pkg = pkgV1
	if strings.HasPrefix(function, pkgV2) {
		pkg = pkgV2
	}
	name = strings.TrimPrefix(function, pkg)
	name = strings.TrimPrefix(name, "(*Rand).")
	return pkg, name
}

// accessor reports whether fn is a one-line method that only passes a
// draw on (inlined into the method that called it).
func accessor(pkg, fn string) bool {
	if pkg == pkgV2 {
		return fn == "Uint64" || fn == "Uint32"
	}
	return fn == "Int63" || fn == "Int31" || fn == "Uint32"
}

// siteOf maps a call to the site it serves.
func siteOf(c call) site {
	cal := calibrate()
	switch c.pkg {
	case pkgV2:
		switch c.fn {
		case "Float64":
			return v2Float64
		case "Float32":
			return v2Float32
		case "Int64":
			return v2Low63
		case "Int":
			return v2Int
		case "Uint":
			return v2Uint
		case "ExpFloat64":
			return v2Exp
		case "NormFloat64":
			return v2Norm
		case "uint64n", "uint32n":
			switch cal.lines[lineKey{pkgV2, c.fn, c.line}] {
			case maskLine:
				return v2Mask
			case firstLine:
				return v2First
			case retryLine:
				return v2Retry
			}
			return v2Safe
		}
		return v2Top
	case pkgV1:
		switch c.fn {
		case "Float64":
			if c.api == "Float32" {
				return v1Float32
			}
			return v1Float64
		case "Uint64":
			return v1Uint64
		case "Int":
			return v1Int
		case "ExpFloat64":
			return v1Exp
		case "NormFloat64":
			return v1Norm
		case "Int63n", "Int31n":
			switch cal.lines[lineKey{pkgV1, c.fn, c.line}] {
			case maskLine:
				return v1Mask
			case firstLine:
				return v1First
			case retryLine:
				if c.fn == "Int63n" {
					return v1Retry63
				}
				return v1Retry31
			}
			return v1Safe
		case "int31n":
			switch cal.lines[lineKey{pkgV1, c.fn, c.line}] {
			case firstLine:
				return v1LemireFirst
			case retryLine:
				return v1LemireRetry
			}
			return v1LemireSafe
		}
		return v1Bits
	}
	return direct
}

// keyPCs is how many program counters above a draw identify its site in
// the cache: the Source method, the math/rand method that called it, and a
// few more for the API method and a wrapper or two.
const keyPCs = 8

// sites caches the site of each stack of program counters seen, when its
// first keyPCs frames decide it.
var sites sync.Map // map[[keyPCs]uintptr]site

// currentSite returns the site of the draw that called it (a method of
// Source).
func currentSite() site {
	var pcs [maxPCs]uintptr
	n := runtime.Callers(2, pcs[:keyPCs])
	key := [keyPCs]uintptr(pcs[:keyPCs])
	if s, ok := sites.Load(key); ok {
		return s.(site)
	}
	if c, complete := callerOf(pcs[:n], n < keyPCs); complete {
		s := siteOf(c)
		sites.Store(key, s)
		return s
	}
	n = runtime.Callers(2, pcs[:])
	c, _ := callerOf(pcs[:n], true)
	return siteOf(c)
}

// lineKey names one call line inside a math/rand method.
type lineKey struct {
	pkg, fn string
	line    int
}

// calibration is what seqrand learned about the math/rand and
// math/rand/v2 of the running binary: which call line of each method with a
// rejection loop is its power-of-two path, its first draw and its retry.
type calibration struct {
	lines map[lineKey]role
	err   error // why a method could not be calibrated; nil when all were
}

var (
	calOnce sync.Once
	cal     calibration
)

// calibrate learns, once, the call lines of the rejection loops by running
// them on a probe source whose draws record where they were called from.
// Lines are learned, not written down, so a new Go release that moves them
// is still served; a release that restructures them makes draws at unseen
// lines fall back to bit patterns that every loop accepts at once.
func calibrate() *calibration {
	calOnce.Do(func() {
		cal.lines = map[lineKey]role{}
		var errs []string
		learn := func(what string, roles []role, run func(p *probe)) {
			p := &probe{}
			run(p)
			if len(p.calls) < len(roles) {
				errs = append(errs, fmt.Sprintf("%s drew %d values, want %d", what, len(p.calls), len(roles)))
				return
			}
			for i, r := range roles {
				c := p.calls[i]
				k := lineKey{c.pkg, c.fn, c.line}
				if c.pkg == "" {
					errs = append(errs, fmt.Sprintf("%s: draw %d came from outside math/rand", what, i+1))
					continue
				}
				if old, ok := cal.lines[k]; ok && old != r {
					errs = append(errs, fmt.Sprintf("%s: draw %d came from %s%s line %d, seen before in another role", what, i+1, c.pkg, c.fn, c.line))
					continue
				}
				cal.lines[k] = r
			}
		}
		mask, loop := []role{maskLine}, []role{firstLine, retryLine}
		for _, n := range []uint64{4, 1 << 40} {
			learn(fmt.Sprintf("math/rand/v2 Uint64N(%d)", n), mask, func(p *probe) {
				p.words = []uint64{0}
				randv2.New(p).Uint64N(n)
			})
		}
		for _, n := range []uint64{3, 3 << 32} {
			// 0 is rejected by every n that is not a power of two; 1 is not.
			learn(fmt.Sprintf("math/rand/v2 Uint64N(%d)", n), loop, func(p *probe) {
				p.words = []uint64{0, 1}
				randv2.New(p).Uint64N(n)
			})
		}
		learn("math/rand Int63n(4)", mask, func(p *probe) {
			p.words = []uint64{0}
			mathrand.New(p).Int63n(4)
		})
		learn("math/rand Int31n(4)", mask, func(p *probe) {
			p.words = []uint64{0}
			mathrand.New(p).Int31n(4)
		})
		// 2⁶³-1 is rejected by every n that is not a power of two; 0 is not.
		learn("math/rand Int63n(3)", loop, func(p *probe) {
			p.words = []uint64{1<<63 - 1, 0}
			mathrand.New(p).Int63n(3)
		})
		learn("math/rand Int31n(3)", loop, func(p *probe) {
			p.words = []uint64{1<<63 - 1, 0}
			mathrand.New(p).Int31n(3)
		})
		// Shuffle(3) calls int31n(3): a Uint32 of 0 is rejected, 1 is not.
		learn("math/rand Shuffle(3)", loop, func(p *probe) {
			p.words = []uint64{0, 1 << 31}
			mathrand.New(p).Shuffle(3, func(int, int) {})
		})
		if len(errs) > 0 {
			cal.err = fmt.Errorf("seqrand: cannot calibrate for %s: %s", runtime.Version(), strings.Join(errs, "; "))
		}
	})
	return &cal
}

// probe is the source calibration runs the rejection loops on: it returns
// its words in turn (repeating the last) and records where each draw came
// from.
type probe struct {
	words []uint64
	calls []call
}

func (p *probe) next() uint64 {
	var pcs [maxPCs]uintptr
	n := runtime.Callers(1, pcs[:])
	c, _ := callerOf(pcs[:n], true)
	p.calls = append(p.calls, c)
	w := p.words[min(len(p.calls), len(p.words))-1]
	return w
}

func (p *probe) Uint64() uint64 { return p.next() }
func (p *probe) Int63() int64   { return int64(p.next()) }
func (p *probe) Seed(int64)     {}
