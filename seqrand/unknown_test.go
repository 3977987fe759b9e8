package seqrand_test

import (
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// unknownXs are the values the unknown-function tests draw: both ends, and
// a value on each side of 0.5.
var unknownXs = []float64{0, 0.3, 0.7, maxValue}

// callOnce makes c on fresh *rand.Rand values over a fresh source of x,
// under the watchdog, and returns what the method returned.
func callOnce(t *testing.T, x float64, c call) any {
	t.Helper()
	var got any
	src := source(x)
	mustReturn(t, src.String()+": "+c.name, func() { got = c.f(randv2.New(src), mathrand.New(src)) })
	return got
}

// baseline is what every call of calls() returns at each of unknownXs with
// every name known; math/rand's searches at 0.7 are left out: they draw
// the words they draw at Max.
func baseline(t *testing.T, cs []call) map[string]any {
	t.Helper()
	base := map[string]any{}
	for _, x := range unknownXs {
		for _, c := range cs {
			if c.search && x == 0.7 {
				continue
			}
			base[fmt.Sprint(x, c.name)] = callOnce(t, x, c)
		}
	}
	return base
}

// unknownZiggurat reports whether c is the ziggurat of a renamed function:
// ExpFloat64 and NormFloat64 have no edges, and when their own function is
// unknown they return other values (the package documentation says so).
func unknownZiggurat(renamed map[string]bool, c call) bool {
	for name, fn := range map[string]string{
		"rand/v2 ExpFloat64": "math/rand/v2.ExpFloat64", "rand/v2 NormFloat64": "math/rand/v2.NormFloat64",
		"math/rand ExpFloat64": "math/rand.ExpFloat64", "math/rand NormFloat64": "math/rand.NormFloat64",
	} {
		if c.name == name && renamed[fn] {
			return true
		}
	}
	return false
}

// The fallback for a function seqrand does not know, proven by renaming,
// one at a time, every name it knows: every method of both packages, with
// every bound, returns at Min, at Max and on each side of 0.5; at Min and
// Max it returns what it returns with the name known, as the package
// documentation promises (but for the ziggurats); and when the renamed
// function is one of the rejection loops (uint64n, Int63n, Int31n,
// int31n), calibration still serves it, so it returns that at every value.
func TestUnknownFunction(t *testing.T) {
	cs := calls()
	base := baseline(t, cs)
	loops := map[string]bool{"math/rand/v2.uint64n": true, "math/rand.Int63n": true, "math/rand.Int31n": true, "math/rand.int31n": true}
	names := seqrand.KnownNames()
	if len(names) < 37 {
		t.Fatalf("seqrand knows %d names (%v), want every method of both packages that draws, at least 37", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			defer seqrand.Rename(name)()
			for _, x := range unknownXs {
				for _, c := range cs {
					// math/rand's searches run through Int63n or Int31n
					// only: another rename cannot change them, and they
					// are slow.
					if c.search && (x == 0.7 || x == maxValue && !loops[name]) {
						continue
					}
					got := callOnce(t, x, c)
					if exact := loops[name] || x == 0 || x == maxValue; exact && !unknownZiggurat(map[string]bool{name: true}, c) {
						if want := base[fmt.Sprint(x, c.name)]; !reflect.DeepEqual(got, want) {
							t.Errorf("%s unknown: %s: %s = %v, want %v as with the name known", name, source(x), c.name, got, want)
						}
					}
				}
			}
		})
	}
}

// With every name unknown at once, every method of both packages, with
// every bound, still returns: at each value on one shared source (so that
// the methods draw again from the same places), and, called once on a
// fresh source, at Min and Max what it returns with the names known, but
// for the ziggurats and math/rand's Read, which draws several times from
// one place.
func TestEveryFunctionUnknown(t *testing.T) {
	cs := calls()
	base := baseline(t, cs)
	names := seqrand.KnownNames()
	defer seqrand.Rename(names...)()
	all := map[string]bool{}
	for _, n := range names {
		all[n] = true
	}
	for _, x := range unknownXs {
		src := source(x)
		r2, r1 := randv2.New(src), mathrand.New(src)
		for _, c := range cs {
			if c.search && x == 0.7 {
				continue
			}
			mustReturn(t, "shared "+src.String()+": "+c.name, func() { c.f(r2, r1) })
			if x != 0 && x != maxValue || unknownZiggurat(all, c) || c.name == "math/rand Read(16 bytes)" {
				continue
			}
			if got, want := callOnce(t, x, c), base[fmt.Sprint(x, c.name)]; !reflect.DeepEqual(got, want) {
				t.Errorf("every name unknown: %s: %s = %v, want %v as with the names known", source(x), c.name, got, want)
			}
		}
	}
}
