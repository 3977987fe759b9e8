package bubble_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// waitsThenRetries is a loop that honours its context (or not, deaf):
// attempts at 0, 500ms and 1.5s, then a 2s wait.
func waitsThenRetries(sw *recorder.Stopwatch, deaf bool) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		for _, d := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
			sw.Attempt()
			sw.AttemptResult(errors.New("503 Service Unavailable"))
			if deaf {
				time.Sleep(d)
				continue
			}
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		sw.Attempt()
		return ctx.Err()
	}
}

// Issue 27: a deadline in a bubble is one call again. It returns once the
// loop has, at the deadline for a loop that honours it, later for one
// that does not, and CheckStopped tells them apart.
func TestCallWithTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		call := bubble.CallWithTimeout(2*time.Second, waitsThenRetries(sw, false))
		if !call.Returned() || call.At() != 2*time.Second || !errors.Is(call.Err(), context.DeadlineExceeded) {
			t.Errorf("a loop that honours its deadline: %v, want returned at 2s with the deadline", call)
		}
		retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})

		sw = recorder.NewStopwatch()
		call = bubble.CallWithTimeout(2*time.Second, waitsThenRetries(sw, true))
		if !call.Returned() || call.At() != 3500*time.Millisecond {
			t.Errorf("a loop deaf to its deadline: %v, want returned at 3.5s", call)
		}
		if err := retrytest.CheckStopped(sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded}); err == nil {
			t.Error("CheckStopped passed a loop that waited past its deadline")
		}
	})
	if got := faket.PanicText(func() { bubble.CallWithTimeout(time.Second, func(context.Context) error { return nil }) }); got == "" {
		t.Error("CallWithTimeout outside a bubble did not panic")
	}
}

// A call that never returns is left running after the deadline and an
// hour; the test then ends it.
func TestCallWithTimeoutNeverReturns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		start := time.Now()
		call := bubble.CallWithTimeout(time.Second, func(context.Context) error { <-release; return nil })
		if call.Returned() || time.Since(start) != time.Hour+time.Second {
			t.Errorf("%v after %v, want running after 1h1s", call, time.Since(start))
		}
		close(release)
	})
}
