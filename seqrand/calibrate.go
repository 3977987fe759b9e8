package seqrand

import (
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"runtime"
	"strings"
	"sync"
)

// lineKey names one call line inside a math/rand method.
type lineKey struct {
	pkg, fn string
	line    int
}

// calibration is what seqrand learned about the math/rand and
// math/rand/v2 of the running binary: the site of each call line of the
// methods with a rejection loop (the power-of-two path, the loop's first
// draw, its retry).
type calibration struct {
	sites map[lineKey]site
	err   error // why a method could not be calibrated; nil when all were
}

// lesson is one run of a method with a rejection loop on a probe: the
// probe's words, chosen so that the method draws once at each of the sites,
// in order.
type lesson struct {
	what  string
	words []uint64
	sites []site
	run   func(p *probe)
}

// lessons are the runs calibration learns from.
func lessons() []lesson {
	var ls []lesson
	for _, n := range []uint64{4, 1 << 40} {
		ls = append(ls, lesson{fmt.Sprintf("math/rand/v2 Uint64N(%d)", n), []uint64{0}, []site{v2Mask},
			func(p *probe) { randv2.New(p).Uint64N(n) }})
	}
	for _, n := range []uint64{3, 3 << 32} {
		// 0 is rejected by every n that is not a power of two; 1 is not.
		ls = append(ls, lesson{fmt.Sprintf("math/rand/v2 Uint64N(%d)", n), []uint64{0, 1}, []site{v2First, v2Retry},
			func(p *probe) { randv2.New(p).Uint64N(n) }})
	}
	return append(ls,
		lesson{"math/rand Int63n(4)", []uint64{0}, []site{v1Mask},
			func(p *probe) { mathrand.New(p).Int63n(4) }},
		lesson{"math/rand Int31n(4)", []uint64{0}, []site{v1Mask},
			func(p *probe) { mathrand.New(p).Int31n(4) }},
		// 2⁶³-1 is rejected by every n that is not a power of two; 0 is not.
		lesson{"math/rand Int63n(3)", []uint64{1<<63 - 1, 0}, []site{v1First, v1Retry63},
			func(p *probe) { mathrand.New(p).Int63n(3) }},
		lesson{"math/rand Int31n(3)", []uint64{1<<63 - 1, 0}, []site{v1First, v1Retry31},
			func(p *probe) { mathrand.New(p).Int31n(3) }},
		// Shuffle(3) calls int31n(3): a Uint32 of 0 is rejected, 1 is not.
		lesson{"math/rand Shuffle(3)", []uint64{0, 1 << 31}, []site{v1LemireFirst, v1LemireRetry},
			func(p *probe) { mathrand.New(p).Shuffle(3, func(int, int) {}) }},
	)
}

// learn runs the lessons and records the site of each line they drew
// from. Lines are learned, not written down, and keyed by whatever function
// drew, so a Go release that moves them, or renames the function, is still
// served.
func learn(ls []lesson) *calibration {
	cal := &calibration{sites: map[lineKey]site{}}
	var errs []string
	for _, l := range ls {
		p := &probe{words: l.words}
		l.run(p)
		if len(p.calls) < len(l.sites) {
			errs = append(errs, fmt.Sprintf("%s: %d draws, want %d", l.what, len(p.calls), len(l.sites)))
			continue
		}
		for i, s := range l.sites {
			c := p.calls[i]
			k := lineKey{c.pkg, c.fn, c.line}
			if c.pkg == "" {
				errs = append(errs, fmt.Sprintf("%s: draw %d came from outside math/rand", l.what, i+1))
				continue
			}
			if old, ok := cal.sites[k]; ok && old != s {
				errs = append(errs, fmt.Sprintf("%s: draw %d came from %s%s line %d, seen before in another role", l.what, i+1, c.pkg, c.fn, c.line))
				continue
			}
			cal.sites[k] = s
		}
	}
	if len(errs) > 0 {
		cal.err = fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return cal
}

// calibrated returns the calibration of the running binary, learned once.
// Tests replace it to see what a failed calibration does.
var calibrated = sync.OnceValue(func() *calibration { return learn(lessons()) })

// mustCalibrate returns the calibration that c, a draw by a method with a
// rejection loop, needs, or panics if calibration failed: the draw cannot
// be served exactly, so the test must fail, with the way out.
func mustCalibrate(c call) *calibration {
	cal := calibrated()
	if cal.err != nil {
		panic(calibrationFailure(c, cal.err))
	}
	return cal
}

// calibrationFailure is the message a draw panics with when calibration
// failed.
func calibrationFailure(c call, err error) string {
	return fmt.Sprintf("seqrand: cannot serve %s(*Rand).%s: this retrykit release does not know the rejection loops of math/rand in %s.\n"+
		"Calibration saw: %v.\n"+
		"Ways out: draw from seqrand.Seeded in this test (its values are not pinned: assert windows), "+
		"or build with a Go release this retrykit release supports. "+
		"Please report it, with this message, at https://github.com/retrykit/retrykit/issues.",
		c.pkg, c.api(), runtime.Version(), err)
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
