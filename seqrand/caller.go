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
// are learned, not written down (calibrate.go): at the first draw that
// needs them, seqrand runs each loop once on a probe source and records the
// site of each line, in whatever function it is. A Go release that moves
// them, or renames their function, is still served; one that restructures
// them so that calibration fails makes every draw by a method with a
// rejection loop panic, naming the Go release and the way out
// (mustCalibrate); a line calibration did not see gets words every loop
// accepts at once (the safe sites). A function seqrand does not know by
// name (v2Names, v1Names) is served as the nearest method above it that it
// knows, or, called by none, by the unknown sites, whose later draws at one
// place step through words that end every loop (layout.go).
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
	"runtime"
	"strconv"
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
	v2Unknown // a function seqrand does not know, called by no method it knows

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
	v1Unknown63   // a function seqrand does not know, called by no method it knows
	v1Unknown31   // the same, reading the source through Int31
	v1Unknown32   // the same, reading the source through Uint32
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

// loop reports whether s is the site of a method with a rejection loop whose
// lines calibration tells apart: the site it has at a line calibration did
// not see.
func (s site) loop() bool {
	return s == v2Safe || s == v1Safe || s == v1LemireSafe
}

// unknown reports whether s serves a function seqrand does not know, called
// by no method it knows: its words depend on how often the same place has
// drawn (see word).
func (s site) unknown() bool {
	return s == v2Unknown || s == v1Unknown63 || s == v1Unknown31 || s == v1Unknown32
}

const (
	pkgV1 = "math/rand."
	pkgV2 = "math/rand/v2."
	// maxPCs is how deep a draw looks for math/rand: through this
	// package's own frames and any Source types that wrap a *Source.
	maxPCs = 16
)

// call is where a draw came from: the math/rand package, the method whose
// code made the call (after skipping the one-line accessors inlined into
// it), its line, and the math/rand methods above it, up to the one the user
// called.
type call struct {
	pkg   string   // pkgV1, pkgV2, or "" when no math/rand method is involved
	fn    string   // e.g. "uint64n", "Float64", "read"
	line  int      // the line of fn that called the source or an accessor
	via   string   // the accessor fn called, e.g. "Uint32"; "" if none
	above []string // the math/rand methods above fn, innermost first
	outer string   // the first caller outside math/rand, as "function:line"
	pos   string   // every math/rand frame of the draw, as "function:line ..."
}

// api is the math/rand method the user called.
func (c call) api() string {
	if len(c.above) > 0 {
		return c.above[len(c.above)-1]
	}
	return c.fn
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
			c.outer = f.Function + ":" + strconv.Itoa(f.Line)
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
	c.pkg, _ = splitFunc(chain[0].Function)
	var pos strings.Builder
	for _, f := range chain {
		_, fn := splitFunc(f.Function)
		fmt.Fprintf(&pos, "%s:%d ", fn, f.Line)
	}
	c.pos = pos.String()
	for i, f := range chain {
		p, fn := splitFunc(f.Function)
		if p != c.pkg || i == len(chain)-1 || !accessor(c.pkg, fn) {
			c.fn, c.line = fn, f.Line
			if i > 0 {
				_, c.via = splitFunc(chain[i-1].Function)
			}
			for _, g := range chain[i+1:] {
				_, name := splitFunc(g.Function)
				c.above = append(c.above, name)
			}
			return c, complete
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

// v2Names and v1Names are the methods of math/rand/v2 and math/rand that
// seqrand knows, with the site of a draw they make: every name that reaches
// siteOf in Go 1.26 (the method that calls the source, after accessors),
// and the methods above them that call a method with a rejection loop. A
// loop's name maps to its site at a line calibration did not see (see
// site.loop).
var (
	v2Names = map[string]site{
		"Uint64": v2Top, "Uint32": v2Top, "Int32": v2Top,
		"Int64": v2Low63, "Int": v2Int, "Uint": v2Uint,
		"Float64": v2Float64, "Float32": v2Float32,
		"ExpFloat64": v2Exp, "NormFloat64": v2Norm,
		"uint64n": v2Safe, "uint32n": v2Safe,
		"IntN": v2Safe, "Int64N": v2Safe, "Int32N": v2Safe, "UintN": v2Safe,
		"Uint32N": v2Safe, "Uint64N": v2Safe, "Perm": v2Safe, "Shuffle": v2Safe,
	}
	v1Names = map[string]site{
		"Int63": v1Bits, "Int31": v1Bits, "Uint32": v1Bits, "read": v1Bits, "Read": v1Bits,
		"Int": v1Int, "Uint64": v1Uint64,
		"Float64": v1Float64, "Float32": v1Float32,
		"ExpFloat64": v1Exp, "NormFloat64": v1Norm,
		"Int63n": v1Safe, "Int31n": v1Safe, "int31n": v1LemireSafe,
		"Intn": v1Safe, "Perm": v1Safe, "Shuffle": v1Safe,
	}
)

// renamed, when set, makes siteOf treat the names it reports as names it
// does not know, as if a Go release had renamed those functions: the seam
// through which the tests prove the fallback for unknown functions. It is
// nil outside tests.
var renamed func(pkg, fn string) bool

// known returns the site of a draw made by the method fn of pkg, and
// whether seqrand knows that method.
func known(pkg, fn string) (site, bool) {
	names := v2Names
	if pkg == pkgV1 {
		names = v1Names
	}
	s, ok := names[fn]
	if !ok || renamed != nil && renamed(pkg, fn) {
		return 0, false
	}
	return s, true
}

// siteOf maps a call to the site it serves. A method with a rejection loop
// is served by the lines calibration learned, and panics if calibration
// failed (see mustCalibrate). A function seqrand does not know is served as
// the first method above it that it knows, or, called by none, by the
// unknown sites.
func siteOf(c call) site {
	if c.pkg == "" {
		return direct
	}
	if s, ok := known(c.pkg, c.fn); ok {
		switch {
		case s.loop():
			if s, ok := mustCalibrate(c).sites[lineKey{c.pkg, c.fn, c.line}]; ok {
				return s
			}
			return safeSite(c)
		case s == v1Float64:
			return v1FloatSite(c.above)
		}
		return s
	}
	// A loop Go renamed is still calibrated: calibration records whatever
	// function draws.
	if cal := calibrated(); cal.err == nil {
		if s, ok := cal.sites[lineKey{c.pkg, c.fn, c.line}]; ok {
			return s
		}
	}
	for i, name := range c.above {
		s, ok := known(c.pkg, name)
		if !ok || i < len(c.above)-1 && accessor(c.pkg, name) {
			continue
		}
		switch {
		case s.loop():
			mustCalibrate(c)
			return safeSite(c)
		case s == v1Float64:
			return v1FloatSite(c.above[i+1:])
		}
		return s
	}
	switch {
	case c.pkg == pkgV2:
		return v2Unknown
	case c.via == "Int31":
		return v1Unknown31
	case c.via == "Uint32":
		return v1Unknown32
	}
	return v1Unknown63
}

// safeSite is the site of a draw by a method with a rejection loop at a line
// calibration did not see: words every loop accepts at once.
func safeSite(c call) site {
	switch {
	case c.pkg == pkgV2:
		return v2Safe
	case c.via == "Uint32": // int31n
		return v1LemireSafe
	}
	return v1Safe
}

// v1FloatSite is the site of a draw by math/rand's Float64, given the
// methods above it. Float64 draws again while its value rounds to 1, and
// Float32 while its float32 does: a Float64 called by Float32, or by a
// method seqrand does not know, gets a word both accept.
func v1FloatSite(above []string) site {
	if len(above) == 0 {
		return v1Float64
	}
	if _, ok := known(pkgV1, above[0]); ok && above[0] != "Float32" {
		return v1Float64
	}
	return v1Float32
}

// keyPCs is how many program counters above a draw identify its site in
// the cache: the Source method, the math/rand method that called it, and a
// few more for the API method and a wrapper or two.
const keyPCs = 8

// where is what a draw needs to know about its caller: its site and, at an
// unknown site, the place it was called from.
type where struct {
	s     site
	outer string // call.outer, at an unknown site
	pos   string // call.pos, at an unknown site
}

// whereOf is the where of c.
func whereOf(c call) where {
	w := where{s: siteOf(c)}
	if w.s.unknown() {
		w.outer, w.pos = c.outer, c.pos
	}
	return w
}

// sites caches the where of each stack of program counters seen, when its
// first keyPCs frames decide it.
var sites sync.Map // map[[keyPCs]uintptr]where

// currentSite returns the where of the draw that called it (a method of
// Source).
func currentSite() where {
	var pcs [maxPCs]uintptr
	n := runtime.Callers(2, pcs[:keyPCs])
	key := [keyPCs]uintptr(pcs[:keyPCs])
	if w, ok := sites.Load(key); ok {
		return w.(where)
	}
	if c, complete := callerOf(pcs[:n], n < keyPCs); complete {
		w := whereOf(c)
		sites.Store(key, w)
		return w
	}
	n = runtime.Callers(2, pcs[:])
	c, _ := callerOf(pcs[:n], true)
	return whereOf(c)
}
