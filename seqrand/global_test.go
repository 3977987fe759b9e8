//go:debug randseednop=0

// The directive above makes rand.Seed work in this test binary, as the
// package documentation tells users to do in theirs.

package seqrand_test

import (
	"fmt"
	mathrand "math/rand"
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
	if err := seqrand.SeedMathRand(42); err != nil {
		t.Fatal(err)
	}
	first := libraryDelays()
	r := mathrand.New(mathrand.NewSource(42))
	want := []int64{r.Int63n(1000), r.Int63n(1000), r.Int63n(1000), r.Int63n(1000)}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Errorf("after SeedMathRand(42), the global drew %v, want the sequence of NewSource(42), %v", first, want)
	}
	if err := seqrand.SeedMathRand(42); err != nil {
		t.Fatal(err)
	}
	if again := libraryDelays(); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Errorf("after a second SeedMathRand(42), the global drew %v, want %v again", again, first)
	}
}

// Without the directive, rand.Seed is a no-op; SeedMathRand says so and
// how to fix it, instead of letting the test run unpinned.
func TestSeedMathRandWithoutTheDirectiveFails(t *testing.T) {
	t.Setenv("GODEBUG", "randseednop=1") // as if the directive were missing
	err := seqrand.SeedMathRand(42)
	const want = "seqrand: SeedMathRand: rand.Seed(42) had no effect: since Go 1.24 it is ignored unless the test binary sets randseednop=0; " +
		"add this line above the package clause of one _test.go file of the package:\n\t//go:debug randseednop=0"
	if err == nil || err.Error() != want {
		t.Errorf("SeedMathRand with randseednop=1 = %v, want %q", err, want)
	}
}
