package retrytest_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// Seed 000's schedule (13 attempts) and its 2000-draw spread check.

func BenchmarkCheckDelaysWithin(b *testing.B) {
	windows := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}.Windows()
	got := retrytest.Waits(webhookSchedule(1, decide)...)
	for b.Loop() {
		if err := retrytest.CheckDelaysWithin(got, windows...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckDelaysWithinFailing(b *testing.B) {
	windows := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Minute, Jitter: retrytest.FullJitter, Attempts: 13}.Windows()
	got := retrytest.Waits(webhookSchedule(1, decide)...)
	for b.Loop() {
		if err := retrytest.CheckDelaysWithin(got, windows...); err == nil {
			b.Fatal("passed, want a failure")
		}
	}
}

func BenchmarkCheckSpread(b *testing.B) {
	rng := rand.New(rand.NewPCG(42, 42))
	atCap := make([]time.Duration, 2000)
	for i := range atCap {
		atCap[i], _ = decide(10, rng)
	}
	spec := retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}
	for b.Loop() {
		if err := retrytest.CheckSpread(retrytest.Waits(atCap...), spec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPolicyWindows(b *testing.B) {
	for b.Loop() {
		retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: time.Minute, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 13, Tolerance: time.Nanosecond}.Windows()
	}
}
