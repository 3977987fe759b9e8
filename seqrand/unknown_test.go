package seqrand_test

import (
	"fmt"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrykit/retrykit/seqrand"
)

// unknownXs are the values the unknown-function tests draw: both ends, and
// a value on each side of 0.5.
var unknownXs = []float64{0, 0.3, 0.7, maxValue}

// callEach makes every call of cs, each on fresh *rand.Rand values over a
// fresh source of x, in one goroutine under the watchdog, and returns what
// each returned; the test fails, naming the call, if one does not return.
// skip leaves calls out.
func callEach(t *testing.T, what string, x float64, cs []call, skip func(call) bool) []any {
	t.Helper()
	got := make([]any, len(cs))
	var current atomic.Pointer[string]
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		for i, c := range cs {
			if skip(c) {
				continue
			}
			name := fmt.Sprintf("%s: %s: %s", what, source(x), c.name)
			current.Store(&name)
			src := source(x)
			got[i] = c.f(randv2.New(src), mathrand.New(src))
		}
	}()
	timer := time.NewTimer(watchdog)
	defer timer.Stop()
	select {
	case p := <-done:
		if p != nil {
			t.Fatalf("%s panicked: %v", *current.Load(), p)
		}
	case <-timer.C:
		t.Fatalf("%s did not return within %v: it hangs", *current.Load(), watchdog)
	}
	return got
}

// searches reports whether c is one of math/rand's searches at x: they are
// slow, and draw from 0.5 up the same words as at Max.
func searches(x float64) func(call) bool {
	return func(c call) bool { return c.search && x >= 0.5 }
}

// baselines are what every call of calls() but math/rand's searches from
// 0.5 up returns at each of unknownXs with every name known.
func baselines(t *testing.T, cs []call) map[float64][]any {
	t.Helper()
	base := map[float64][]any{}
	for _, x := range unknownXs {
		base[x] = callEach(t, "known", x, cs, searches(x))
	}
	return base
}

// unknownZiggurat reports whether c is the ziggurat of a renamed function:
// ExpFloat64 and NormFloat64 have no edges, and when their own function is
// unknown they return other values (the package documentation says so).
func unknownZiggurat(unknown map[string]bool, c call) bool {
	for name, fn := range map[string]string{
		"rand/v2 ExpFloat64": "math/rand/v2.ExpFloat64", "rand/v2 NormFloat64": "math/rand/v2.NormFloat64",
		"math/rand ExpFloat64": "math/rand.ExpFloat64", "math/rand NormFloat64": "math/rand.NormFloat64",
	} {
		if c.name == name && unknown[fn] {
			return true
		}
	}
	return false
}

// The fallback for a function seqrand does not know, proven by renaming,
// one at a time, every name it knows: every method of both packages, with
// every bound, returns at Min and at Max what it returns with the name
// known, as the package documentation promises (but for the ziggurats).
// math/rand's searches at Max, through Int63n and Int31n only, are left to
// TestEveryFunctionUnknown, which renames those too.
func TestUnknownFunction(t *testing.T) {
	cs := calls()
	base := baselines(t, cs)
	names := seqrand.KnownNames()
	if len(names) != 37 {
		t.Fatalf("seqrand knows %d names (%v), want 37: every method of both packages that draws in Go 1.26", len(names), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			defer seqrand.Rename(name)()
			for _, x := range []float64{0, maxValue} {
				got := callEach(t, name+" unknown", x, cs, searches(x))
				for i, c := range cs {
					if c.search && x >= 0.5 || unknownZiggurat(map[string]bool{name: true}, c) {
						continue
					}
					if !reflect.DeepEqual(got[i], base[x][i]) {
						t.Errorf("%s unknown: %s: %s = %v, want %v as with the name known", name, source(x), c.name, got[i], base[x][i])
					}
				}
			}
		})
	}
}

// With every name unknown at once, every method of both packages, with
// every bound, still returns: on one shared source at each of unknownXs (so
// that the methods draw again from the same places), and on fresh sources.
// Called once on a fresh source, each returns what it returns with the
// names known: at every value when a rejection loop serves it (calibration
// still knows their lines); at Min and Max for the others, but for the
// ziggurats and for math/rand's Read, which draws several times from one
// place; math/rand's searches at Max are held to the spec (checkModulo).
func TestEveryFunctionUnknown(t *testing.T) {
	cs := calls()
	base := baselines(t, cs)
	names := seqrand.KnownNames()
	defer seqrand.Rename(names...)()
	all := map[string]bool{}
	for _, n := range names {
		all[n] = true
	}
	loop := func(c call) bool {
		return strings.Contains(c.name, "N(") || strings.Contains(c.name, "n(") || strings.Contains(c.name, "Perm") || strings.Contains(c.name, "Shuffle")
	}
	for _, x := range unknownXs {
		src := source(x)
		r2, r1 := randv2.New(src), mathrand.New(src)
		mustReturn(t, "every name unknown, one shared "+src.String(), func() {
			for _, c := range cs {
				if !(c.search && x >= 0.5) {
					c.f(r2, r1)
				}
			}
		})
		fresh := func(c call) bool { return c.search && x == 0.7 }
		got := callEach(t, "every name unknown", x, cs, fresh)
		for i, c := range cs {
			switch {
			case fresh(c):
			case c.search && x >= 0.5:
				checkSearch(t, c, got[i])
			case loop(c) || (x == 0 || x == maxValue) && !unknownZiggurat(all, c) && c.name != "math/rand Read(16 bytes)":
				if !reflect.DeepEqual(got[i], base[x][i]) {
					t.Errorf("every name unknown: %s: %s = %v, want %v as with the names known", source(x), c.name, got[i], base[x][i])
				}
			}
		}
	}
}

// checkSearch holds the result of one of math/rand's searches at Max (c
// is Int63n, Int31n or Intn) to the spec, as TestV1Intn does.
func checkSearch(t *testing.T, c call, got any) {
	t.Helper()
	method, arg, _ := strings.Cut(strings.TrimPrefix(c.name, "math/rand "), "(")
	n, err := strconv.ParseUint(strings.TrimSuffix(arg, ")"), 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	v := reflect.ValueOf(got).Int()
	k := uint(63)
	if method == "Int31n" || method == "Intn" && n <= math.MaxInt32 {
		k = 31
	}
	if pow2(n) {
		if uint64(v) != n-1 {
			t.Errorf("every name unknown: Max: %s = %d, want n-1 = %d", c.name, v, n-1)
		}
		return
	}
	checkModulo(t, "every name unknown: Max: "+c.name, maxValue, n, uint64(v), k)
}

// A function seqrand does not know, called by no method it knows, draws
// once per call at the ends of every method; a call again from the same
// line steps on, as the Source documentation says: at the bottom 1 instead
// of 0 (math/rand: 2³¹, every other draw), at the top every bit but bit 29
// every other draw (math/rand/v2) or a step down from 2⁶³-1 every other
// draw (math/rand); calls from another line, or after Seed, start afresh,
// and calls from other lines between do not disturb a line's steps.
func TestUnknownFunctionCalledAgain(t *testing.T) {
	defer seqrand.Rename("math/rand/v2.Float64", "math/rand/v2.Uint64", "math/rand.Int63")()
	min, max := seqrand.Min(), seqrand.Max()
	r2, r1, top2, top1 := randv2.New(min), mathrand.New(min), randv2.New(max), mathrand.New(max)
	first := r2.Float64()
	second := r2.Float64()
	if first != 0 || second != 0 {
		t.Errorf("Min: rand/v2 Float64 unknown, called from two lines = %v, %v, want 0, 0", first, second)
	}
	var f2 []float64
	var u2 []uint64
	var i1, top []int64
	for i := range 4 {
		if i == 2 {
			min.Seed(0)
			max.Seed(0)
		}
		f2 = append(f2, r2.Float64())
		u2 = append(u2, top2.Uint64())
		i1 = append(i1, r1.Int63())
		top = append(top, top1.Int63())
	}
	for _, tc := range []struct {
		call      string
		got, want any
	}{
		{"Min: rand/v2 Float64", f2, []float64{0, 0x1p-53, 0, 0x1p-53}},
		{"Max: rand/v2 Uint64", u2, []uint64{math.MaxUint64, math.MaxUint64 - 1<<29, math.MaxUint64, math.MaxUint64 - 1<<29}},
		{"Min: math/rand Int63", i1, []int64{0, 1 << 31, 0, 1 << 31}},
		{"Max: math/rand Int63", top, []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64 - 1}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s unknown, called 4 times from one line, Seed after 2 = %v, want %v", tc.call, tc.got, tc.want)
		}
	}
	var more []int64
	for range 4 {
		more = append(more, top1.Int63())
	}
	if want := []int64{math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64, math.MaxInt64 - 2}; !reflect.DeepEqual(more, want) {
		t.Errorf("Max: math/rand Int63 unknown, called 4 times more from another line = %v, want %v", more, want)
	}
}
