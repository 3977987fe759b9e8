package matchers_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// newGomega returns a Gomega whose failures are printed, so the Examples
// can pin them.
func newGomega() gomega.Gomega {
	return gomega.NewGomega(func(message string, _ ...int) {
		fmt.Println(message)
	})
}

func ExampleHaveDelaysWithin() {
	g := newGomega()
	// What the retry loop under test did, through its hooks: two 503s,
	// 100ms apart, then a success 450ms later.
	rec := recorder.New()
	unavailable := errors.New("503 Service Unavailable")
	rec.Attempt()
	rec.AttemptResult(unavailable)
	rec.Sleep(100 * time.Millisecond)
	rec.Attempt()
	rec.AttemptResult(unavailable)
	rec.Sleep(450 * time.Millisecond)
	rec.Attempt()
	rec.AttemptResult(nil)
	g.Expect(rec).To(matchers.HaveDelaysWithin(
		retrytest.Window{Min: 50 * time.Millisecond, Max: 150 * time.Millisecond},
		retrytest.Window{Min: 200 * time.Millisecond, Max: 400 * time.Millisecond},
	))
	// Output:
	// Expected
	//     retry schedule (3 attempts)
	//       attempt  delay  at     want            result
	//       1        0s     0s     0s              503 Service Unavailable
	//       2        100ms  100ms  [50ms, 150ms]   503 Service Unavailable
	//     > 3        450ms  550ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
	// to have delays within the given windows: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
}

// Seed 001: four full-jitter waits recorded with the random source at its
// top endpoint, inside their half-open windows [0, ceiling).
func ExampleHaveDelaysWithin_passing() {
	g := newGomega()
	delays := []time.Duration{999 * time.Millisecond, 1999 * time.Millisecond, 3999 * time.Millisecond, 7999 * time.Millisecond}
	windows := retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 5}.Windows()
	g.Expect(delays).To(matchers.HaveDelaysWithin(windows...))
	g.Expect(delays).To(matchers.HaveAttempts(5))
	fmt.Println("ok")
	// Output:
	// ok
}

// Seed 003: 500ms, 1s, 2s, 4s, 8s, 8s. The negated assertion fails and
// shows the same table, unmarked.
func ExampleBeCappedAt() {
	g := newGomega()
	ladder := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	g.Expect(ladder).To(matchers.BeCappedAt(8 * time.Second))
	g.Expect(ladder).NotTo(matchers.BeCappedAt(8 * time.Second))
	// Output:
	// Expected
	//     retry schedule (7 attempts)
	//       attempt  delay  at     want
	//       1        0s     0s     <= 8s
	//       2        500ms  500ms  <= 8s
	//       3        1s     1.5s   <= 8s
	//       4        2s     3.5s   <= 8s
	//       5        4s     7.5s   <= 8s
	//       6        8s     15.5s  <= 8s
	//       7        8s     23.5s  <= 8s
	// not to be capped at 8s
}

// A loop that should stop after 5 attempts made 6: the off-by-one of
// counting retries as attempts.
func ExampleHaveAttempts() {
	g := newGomega()
	rec := recorder.New()
	for i := range 6 {
		if i > 0 {
			rec.Sleep(time.Second)
		}
		rec.Attempt()
	}
	g.Expect(rec).To(matchers.HaveAttempts(5))
	// Output:
	// Expected
	//     retry schedule (6 attempts)
	//       attempt  delay  at
	//       1        0s     0s
	//       2        1s     1s
	//       3        1s     2s
	//       4        1s     3s
	//       5        1s     4s
	//     > 6        1s     5s  <-- got 6 attempts, want 5
	// to have 5 attempts: got 6 attempts (5 retries), want 5 (4 retries)
}

// Seed 000: 2000 delays at the cap with jitter added after capping all land
// on the cap.
func ExampleBeSpread() {
	g := newGomega()
	atCap := make([]time.Duration, 2000)
	for i := range atCap {
		atCap[i] = time.Hour
	}
	g.Expect(atCap).To(matchers.BeSpread(retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, Buckets: 4, MaxRatio: 2}))
	// Output:
	// Expected
	//     2000 delays in 4 buckets of 15m over [0s, 1h]
	//       bucket      count
	//       [0s, 15m)   0
	//       [15m, 30m)  0
	//       [30m, 45m)  0
	//     > [45m, 1h]   2000   ####################  <-- 4x the mean
	// to be spread over [0s, 1h]:
	//     bucket [45m, 1h] holds 2000 of 2000 delays, want fewer than 1000 (2x the mean 500)
	//     the shortest delay 1h is not in the first bucket [0s, 15m)
}

// An actual of the wrong type fails the assertion with gomega's wording.
func ExampleHaveDelays() {
	g := newGomega()
	g.Expect("500ms").To(matchers.HaveDelays(500 * time.Millisecond))
	// Output:
	// HaveDelays matcher expects a retrytest.Schedule (the recorder, a fake clock, a Transport, a Stopwatch, a policysim.Job) or a []time.Duration of waits.  Got:
	//     <string>: 500ms
}
