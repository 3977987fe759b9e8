package seqrand

import (
	"fmt"
	mathrand "math/rand"
)

// SeedMathRand seeds the package-level functions of math/rand with seed, for
// code that draws from them (avast/retry-go v4 and cenkalti/backoff v4 do),
// and returns an error, saying how to fix it, if seeding had no effect:
//
//	if err := seqrand.SeedMathRand(42); err != nil {
//		t.Fatal(err)
//	}
//
// Since Go 1.24, rand.Seed does nothing unless the program sets the
// randseednop=0 GODEBUG. A test binary sets it with this line above the
// package clause of any one _test.go file of the package:
//
//	//go:debug randseednop=0
//
// After SeedMathRand(seed) the global functions return the sequence of
// mathrand.New(mathrand.NewSource(seed)): reproducible from run to run, but
// not chosen, so assert the delays against their windows. The global stays
// seeded for the rest of the test binary, and a test that runs in parallel
// and draws from it shifts the sequence; SeedMathRand must be called from
// the goroutine running the test. The math/rand/v2 global cannot be seeded
// at all.
func SeedMathRand(seed int64) error {
	//lint:ignore SA1019 seeding the deprecated global is the point
	mathrand.Seed(seed)
	got := mathrand.Int63()
	want := mathrand.New(mathrand.NewSource(seed)).Int63()
	//lint:ignore SA1019 rewind, so the caller's first draw is the seed's first value
	mathrand.Seed(seed)
	if got != want {
		return fmt.Errorf("seqrand: SeedMathRand: rand.Seed(%d) had no effect: since Go 1.24 it is ignored unless the test binary sets randseednop=0; "+
			"add this line above the package clause of one _test.go file of the package:\n\t//go:debug randseednop=0", seed)
	}
	return nil
}
