package matchers_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
)

// growing is a live Schedule of waits that a retry loop appends to from
// another goroutine, like the recorder.
type growing struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (g *growing) add(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.delays = append(g.delays, d)
}

func (g *growing) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return nil, nil, append([]time.Duration(nil), g.delays...), ""
}

// TestEventually polls bare Schedules inside a synctest bubble, so the
// polling interval and timeout pass in fake time, and checks when Eventually
// stops: early once the answer is final (a wrong delay), at the timeout
// while more attempts could still fix it, and on success once the loop has
// recorded enough.
func TestEventually(t *testing.T) {
	ladder := retrytest.Policy{First: time.Second, Growth: 2, Attempts: 4}.Windows()
	for _, tc := range []struct {
		name        string
		loop        []time.Duration // what the retry loop records, one per second
		wantFail    bool
		wantElapsed time.Duration
	}{
		{"passes once recorded", []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, false, 3 * time.Second},
		{"stops at a wrong delay", []time.Duration{time.Second, 3 * time.Second}, true, 2 * time.Second},
		{"waits until the timeout for missing attempts", []time.Duration{time.Second}, true, time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &growing{}
				done := make(chan struct{})
				go func() {
					defer close(done)
					for _, d := range tc.loop {
						time.Sleep(time.Second)
						rec.add(d)
					}
				}()
				var failures []string
				g := gomega.NewGomega(func(message string, _ ...int) { failures = append(failures, message) })
				start := time.Now()
				g.Eventually(rec).WithTimeout(time.Minute).WithPolling(100 * time.Millisecond).Should(matchers.HaveDelays(
					ladder[0].Min, ladder[1].Min, ladder[2].Min))
				elapsed := time.Since(start).Truncate(time.Second)
				if failed := len(failures) > 0; failed != tc.wantFail || elapsed != tc.wantElapsed {
					t.Errorf("Eventually failed = %v after %v, want %v after %v\n%s", failed, elapsed, tc.wantFail, tc.wantElapsed, failures)
				}
				<-done
			})
		})
	}
}

// TestEventuallyBareSliceStopsAtOnce: a plain slice never changes, so a
// failing match is final on the first poll.
func TestEventuallyBareSliceStopsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		failed := false
		g := gomega.NewGomega(func(string, ...int) { failed = true })
		start := time.Now()
		g.Eventually([]time.Duration{time.Second}).WithTimeout(time.Minute).Should(matchers.HaveAttempts(3))
		if elapsed := time.Since(start); !failed || elapsed != 0 {
			t.Errorf("Eventually(slice) failed = %v after %v, want true after 0s", failed, elapsed)
		}
	})
}
