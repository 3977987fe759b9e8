package retrytest_test

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

func ExampleCheckDelaysWithin() {
	rec := recorder.New() // the sleep hook of the code under test
	for i, d := range []time.Duration{100 * time.Millisecond, 450 * time.Millisecond, 0} {
		rec.Attempt()
		if i < 2 {
			rec.AttemptResult(errors.New("503 Service Unavailable"))
			rec.Sleep(d)
		} else {
			rec.AttemptResult(nil)
		}
	}
	err := retrytest.CheckDelaysWithin(rec,
		retrytest.Window{Min: 50 * time.Millisecond, Max: 150 * time.Millisecond},
		retrytest.Window{Min: 200 * time.Millisecond, Max: 400 * time.Millisecond},
	)
	fmt.Println(err)
	// Output:
	// retrytest: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
	// retry schedule (3 attempts):
	//     attempt  delay  at     want            result
	//     1        0s     0s     0s              503 Service Unavailable
	//     2        100ms  100ms  [50ms, 150ms]   503 Service Unavailable
	//   > 3        450ms  550ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
}

// Seed 001: with the random source injected, its two endpoints pin both
// edges of every full-jitter window. Here the exponent is taken from the
// retry count instead of the attempt index, which doubles every ceiling;
// the top endpoint catches it.
func ExampleAssertDelaysWithin() {
	windows := retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 5}.Windows()
	for _, r := range []float64{0, math.Nextafter(1, 0)} {
		var delays []time.Duration
		for i := range 4 {
			ceiling := min(30*time.Second, time.Second<<(i+1)) // bug: should be <<i
			delays = append(delays, time.Duration(math.Floor(r*float64(ceiling))))
		}
		retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
			retrytest.AssertDelaysWithin(t, retrytest.Waits(delays...), windows...)
		})
	}
	// Output:
	// PASS
	// retrytest: attempt 2 of 5: delay = 1.999999999s, want within [0s, 1s)
	// retrytest: attempt 3 of 5: delay = 3.999999999s, want within [0s, 2s)
	// retrytest: attempt 4 of 5: delay = 7.999999999s, want within [0s, 4s)
	// retrytest: attempt 5 of 5: delay = 15.999999999s, want within [0s, 8s)
	// retry schedule (5 attempts):
	//     attempt  delay          at             want
	//     1        0s             0s             0s
	//   > 2        1.999999999s   1.999999999s   [0s, 1s)  <-- delay 1.999999999s outside [0s, 1s)
	//     3        3.999999999s   5.999999998s   [0s, 2s)
	//     4        7.999999999s   13.999999997s  [0s, 4s)
	//     5        15.999999999s  29.999999996s  [0s, 8s)
	// FAIL
}

// Seed 003: five attempts are four waits. An Assert reports and returns
// false; t.FailNow stops the test there, so the line after never runs.
func ExampleAssertAttempts() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		waits := retrytest.Waits(500*time.Millisecond, time.Second, 2*time.Second, 4*time.Second)
		retrytest.AssertAttempts(t, waits, 5)
		fmt.Println("5 attempts, 4 waits")
		if !retrytest.AssertAttempts(t, waits, 4) {
			t.FailNow()
		}
		fmt.Println("not reached")
	})
	// Output:
	// 5 attempts, 4 waits
	// retrytest: got 5 attempts (4 retries), want 4 (3 retries)
	// retry schedule (5 attempts):
	//     attempt  delay  at
	//     1        0s     0s
	//     2        500ms  500ms
	//     3        1s     1.5s
	//     4        2s     3.5s
	//   > 5        4s     7.5s  <-- got 5 attempts, want 4
	// FAIL
}

// Seed 003: the ladder stops doubling at the cap, and the sixth delay is
// the one to assert.
func ExampleCheckCappedAt() {
	ladder := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	fmt.Println(retrytest.CheckCappedAt(retrytest.Waits(ladder...), 8*time.Second))

	ladder[5] = 16 * time.Second // the clamp applied to the exponent, not the result
	fmt.Println(retrytest.CheckCappedAt(retrytest.Waits(ladder...), 8*time.Second))
	// Output:
	// <nil>
	// retrytest: attempt 7 of 7: delay = 16s, want <= 8s (the cap)
	// retry schedule (7 attempts):
	//     attempt  delay  at     want
	//     1        0s     0s     <= 8s
	//     2        500ms  500ms  <= 8s
	//     3        1s     1.5s   <= 8s
	//     4        2s     3.5s   <= 8s
	//     5        4s     7.5s   <= 8s
	//     6        8s     15.5s  <= 8s
	//   > 7        16s    31.5s  <= 8s  <-- delay 16s over the cap 8s
}

func ExamplePolicy_Windows() {
	// The 500ms ladder doubling to an 8s cap, exact.
	fmt.Println(retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 8 * time.Second, Attempts: 7}.Windows())
	// Full jitter under the same ceilings.
	fmt.Println(retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 8 * time.Second, Jitter: retrytest.FullJitter, Attempts: 7}.Windows())
	// cenkalti/backoff's defaults (factor 1.5, ±50%) with a 4s cap applied
	// before the jitter, so delays reach 6s; the library draws from
	// [a, b+1ns).
	fmt.Println(retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: 4 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 8, Tolerance: time.Nanosecond}.Windows()[5:])
	// Output:
	// [[500ms, 500ms] [1s, 1s] [2s, 2s] [4s, 4s] [8s, 8s] [8s, 8s]]
	// [[0s, 500ms] [0s, 1s] [0s, 2s] [0s, 4s] [0s, 8s] [0s, 8s]]
	// [[1.898437499s, 5.695312501s] [1.999999999s, 6.000000001s]]
}

// Seed 000: with jitter added after the cap, every job at the cap retries
// at the same instant. A spread check turns that into a histogram.
func ExampleCheckSpread() {
	atCap := make([]time.Duration, 2000)
	for i := range atCap {
		atCap[i] = time.Hour // min(1h, 5s·2^10 + jitter)
	}
	err := retrytest.CheckSpread(retrytest.Waits(atCap...), retrytest.Spread{
		Range:    retrytest.Window{Max: time.Hour},
		Buckets:  6,
		MaxRatio: 2,
	})
	fmt.Println(err)
	// Output:
	// retrytest: bucket [50m, 1h] holds 2000 of 2000 delays, want fewer than 666.7 (2x the mean 333.3)
	// retrytest: the shortest delay 1h is not in the first bucket [0s, 10m)
	// 2000 delays in 6 buckets of 10m over [0s, 1h]:
	//     bucket      count
	//     [0s, 10m)   0
	//     [10m, 20m)  0
	//     [20m, 30m)  0
	//     [30m, 40m)  0
	//     [40m, 50m)  0
	//   > [50m, 1h]   2000   ####################  <-- 6x the mean
}

func ExampleCheckAttemptsAt() {
	// Seed 003: nothing before the first attempt, the retry at exactly
	// 500ms, the next 1s later.
	waits := retrytest.Waits(500*time.Millisecond, time.Second)
	fmt.Println(retrytest.CheckAttemptsAt(waits, 0, 500*time.Millisecond, 1500*time.Millisecond))
	// Output:
	// <nil>
}

// An Example has no *testing.T. ExampleT stands in for it: it prints what
// the checks report, stops at a FailNow as a test would, runs the cleanups
// that fixtures such as the fake clock register, and ends with PASS or
// FAIL, so the Output comment pins the failure.
func ExampleExampleT() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		t.Cleanup(func() { fmt.Println("cleanup: the clock is at", clk.Since(fakeclock.Epoch)) })
		sw := recorder.NewStopwatch().WithClock(clk)
		sw.Attempt()
		clk.Advance(time.Second) // the code under test waits 1s, not 500ms
		sw.Attempt()
		if !retrytest.AssertAttemptsAt(t, sw, 0, 500*time.Millisecond) {
			t.FailNow()
		}
		fmt.Println("not reached")
	})
	// Output:
	// retrytest: attempt 2 of 2: at = 1s, want 500ms
	// retry schedule (2 attempts):
	//     attempt  delay  at  want
	//     1        0s     0s  at 0s
	//   > 2        1s     1s  at 500ms  <-- at 1s, want 500ms
	// cleanup: the clock is at 1s
	// FAIL
}
