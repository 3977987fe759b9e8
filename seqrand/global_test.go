//go:debug randseednop=0

// The directive above makes rand.Seed work in this test binary, as the
// package documentation tells users to do in theirs.

package seqrand_test

import (
	"fmt"
	mathrand "math/rand"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/seqrand"
)

// libraryDelays stands for a retry library that draws its jitter from the
// math/rand global (as avast/retry-go v4 and cenkalti/backoff v4 do).
func libraryDelays() []int64 {
	var d []int64
	for range 4 {
		d = append(d, mathrand.Int63n(1000))
	}
	return d
}

func TestSeedMathRandPinsTheGlobal(t *testing.T) {
	seqrand.SeedMathRand(t, 42)
	first := libraryDelays()
	r := mathrand.New(mathrand.NewSource(42))
	want := []int64{r.Int63n(1000), r.Int63n(1000), r.Int63n(1000), r.Int63n(1000)}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Errorf("after SeedMathRand(t, 42), the global drew %v, want the sequence of NewSource(42), %v", first, want)
	}
	seqrand.SeedMathRand(t, 42)
	if again := libraryDelays(); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("after a second SeedMathRand(t, 42), the global drew %v, want %v again", again, first)
	}
}

// fakeT records what a TestingT helper reports.
type fakeT struct {
	errors []string
	failed bool
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) FailNow() { f.failed = true }

// Without the directive, rand.Seed is a no-op; SeedMathRand says so and
// how to fix it, instead of letting the test run unpinned.
func TestSeedMathRandWithoutTheDirectiveFails(t *testing.T) {
	t.Setenv("GODEBUG", "randseednop=1") // as if the directive were missing
	ft := &fakeT{}
	seqrand.SeedMathRand(ft, 42)
	const want = "seqrand: SeedMathRand: rand.Seed(42) had no effect: since Go 1.24 it is ignored unless the test binary sets randseednop=0; " +
		"add this line above the package clause of one _test.go file of the package:\n\t//go:debug randseednop=0"
	if !ft.failed || strings.Join(ft.errors, "\n") != want {
		t.Errorf("SeedMathRand with randseednop=1 reported %q (FailNow called: %v), want %q and FailNow", ft.errors, ft.failed, want)
	}
}

// The test types SeedMathRand accepts.
var (
	_ seqrand.TestingT = (*testing.T)(nil)
	_ seqrand.TestingT = (*testing.B)(nil)
	_ seqrand.TestingT = (*testing.F)(nil)
)
