package seqrand_test

import (
	"fmt"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/seqrand"
)

// retryableError is seed 001's RetryableError: a 429 or a 503 worth
// retrying.
type retryableError struct{ status int }

func (e retryableError) Error() string { return fmt.Sprintf("retryable %d", e.status) }

// withRetry is seed 001's retry loop, the code under test: up to five
// attempts; after a retryable error, a full-jitter wait in [0, ceiling),
// where the ceiling doubles from 1s and is capped at 30s; any other error
// is returned at once. Its sleep and random functions are its seams.
func withRetry(fn func(attempt int) error, sleep func(time.Duration), random func() float64) error {
	const attempts, base, maxDelay = 5, time.Second, 30 * time.Second
	for i := 0; ; i++ {
		err := fn(i)
		if _, retryable := err.(retryableError); !retryable || i == attempts-1 {
			return err
		}
		ceiling := min(maxDelay, base<<i)
		sleep(time.Duration(random() * float64(ceiling)))
	}
}

// Seed 001: at random 0 and just under 1, every delay stays inside its
// full-jitter window [0, 1s·2ⁱ): two runs pin both edges of every window.
func Example() {
	for _, src := range seqrand.Endpoints() {
		rec := recorder.New()
		_ = withRetry(func(int) error { return retryableError{503} }, rec.Sleep, src.Float64)
		for i, d := range rec.Delays() {
			if ceiling := time.Second << i; d < 0 || d >= ceiling {
				fmt.Printf("%s: delay %d = %v, outside [0s, %v)\n", src, i+1, d, ceiling)
			}
		}
		fmt.Println(src, rec.Delays())
	}
	// Output:
	// Min [0s 0s 0s 0s]
	// Max [999.999999ms 1.999999999s 3.999999999s 7.999999999s]
}

// A Sequence pins each draw at a chosen point of its window.
func ExampleSequence() {
	src := seqrand.Sequence(0.5, 0.25, 0.75)
	rec := recorder.New()
	err := withRetry(func(attempt int) error {
		if attempt < 3 {
			return retryableError{429}
		}
		return nil
	}, rec.Sleep, src.Float64)
	fmt.Println(err, rec.Delays())
	// Output: <nil> [500ms 500ms 3s]
}

// Max is the top of every range through every API: math/rand/v2 and
// math/rand alike.
func ExampleMax() {
	r2, r1 := randv2.New(seqrand.Max()), mathrand.New(seqrand.Max())
	fmt.Println(r2.Float64(), r2.IntN(10), r2.Int64N(int64(time.Second)), r2.Float32())
	fmt.Println(r1.Float64(), r1.Intn(10), r1.Int63n(1000), r1.Float32())
	// Output:
	// 0.9999999999999999 9 999999999 0.99999994
	// 0.9999999999999999 9 999 0.99999994
}

// Min is the bottom of every range.
func ExampleMin() {
	r2, r1 := randv2.New(seqrand.Min()), mathrand.New(seqrand.Min())
	fmt.Println(r2.Float64(), r2.IntN(10), r2.Int64N(int64(time.Second)), r1.Float64(), r1.Intn(10))
	// Output: 0 0 0 0 0
}

// Fixed pins a point inside the window. Through math/rand/v2, IntN(n) is
// ⌊x·n⌋ of the exact product: 0.7 is stored as 0.6999999999999999556, so
// IntN(10) is 6.
func ExampleFixed() {
	r := randv2.New(seqrand.Fixed(0.7))
	fmt.Println(seqrand.Fixed(0.7).Float64(), r.IntN(10), r.IntN(1000), r.Int64N(int64(2*time.Second)))
	// Output: 0.7 6 699 1399999999
}

// Seeded checks a distribution reproducibly: the same seed gives the same
// draws on every run. Here, how 1000 full-jitter delays under a 1s ceiling
// fall into four buckets.
func ExampleSeeded() {
	r := randv2.New(seqrand.Seeded(42))
	var buckets [4]int
	for range 1000 {
		buckets[r.Int64N(int64(time.Second))*4/int64(time.Second)]++
	}
	fmt.Println(buckets)
	// Output: [257 255 247 241]
}
