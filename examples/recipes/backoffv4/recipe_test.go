package backoffv4_test

import (
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/examples/recipes/backoffv4"
	"github.com/retrykit/retrykit/examples/recipes/internal/fakeloop"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// start runs backoff's retry loop on clk in a goroutine, with an operation
// that always fails and marks each attempt on sw. The loop reports its error
// and when, on clk, it returned.
func start(clk *fakeclock.Clock, sw *retrytest.Stopwatch, b backoff.BackOff) *fakeloop.Loop[retrytest.DeadlineRun] {
	return fakeloop.Start(clk, func() retrytest.DeadlineRun {
		err := backoff.RetryNotifyWithTimer(func() error { sw.Attempt(); return errUnavailable }, b, nil, backoffv4.NewTimer(clk))
		return retrytest.DeadlineRun{Returned: clk.Since(fakeclock.Epoch), Err: err}
	})
}

// The defaults (500ms ×1.5, ±50%) with MaxInterval 4s: the cap applies before
// the jitter, and WithMaxRetries(8) makes 9 attempts.
func TestRecipeJitteredSchedule(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithMaxInterval(4*time.Second))
	if got := start(clk, sw, backoff.WithMaxRetries(b, 8)).Finish(t); !errors.Is(got.Err, errUnavailable) {
		t.Errorf("RetryNotifyWithTimer() = %v, want %v", got.Err, errUnavailable)
	}
	retrytest.AssertDelaysWithin(t, sw, retrytest.Exponential(500*time.Millisecond, 1.5, 4*time.Second, 9,
		retrytest.WithRandomizationFactor(0.5), retrytest.WithTolerance(time.Nanosecond))...)
	retrytest.AssertDelays(t, sw, clk.Delays()...) // each attempt came when its timer fired
}

// MaxElapsedTime reads the fake Clock: after waits of 1s, 2s and 4s, the next
// wait (8s) would end past 10s, so the loop stops at 7s without waiting.
func TestRecipeMaxElapsedTime(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0),
		backoff.WithInitialInterval(time.Second), backoff.WithMultiplier(2), backoff.WithMaxElapsedTime(10*time.Second))
	if got := start(clk, sw, b).Finish(t); got.Returned != 7*time.Second {
		t.Errorf("RetryNotifyWithTimer() returned at %v, want 7s", got.Returned)
	}
	retrytest.AssertAttemptsAt(t, sw, 0, time.Second, 3*time.Second, 7*time.Second)
}
