package retrygo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// fail is an operation that marks each attempt on a and always fails.
func fail(a interface{ Attempt() }) retry.RetryableFunc {
	return func() error { a.Attempt(); return errUnavailable }
}

// start runs retry.Do(fail(sw), retry.WithTimer(clk), opts...) on a
// goroutine of its own. The function it returns reports the call, which has
// returned; it fails the test if retry.Do is still running (after a Step it
// has settled, so it would be waiting for something).
func start(t *testing.T, clk *fakeclock.Clock, sw *recorder.Stopwatch, opts ...retry.Option) (returned func() *recorder.Call) {
	call := recorder.Start(clk, func() error {
		return retry.Do(fail(sw), append([]retry.Option{retry.WithTimer(clk)}, opts...)...)
	})
	return func() *recorder.Call {
		t.Helper()
		if !call.Returned() {
			t.Fatalf("retry.Do has not returned; pending on the clock: %v", clk.Pending())
		}
		return call
	}
}

// The defaults: ten attempts, 100ms·2^k plus [0, 100ms) of additive jitter.
// OnRetry fires after the last attempt as well (avast/retry-go#31).
func TestRecipeDefaults(t *testing.T) {
	rec, onRetry := recorder.New(), 0
	_ = retry.Do(fail(rec), retry.WithTimer(rec), retry.OnRetry(func(uint, error) { onRetry++ }))
	retrytest.AssertDelaysWithin(t, rec, retrytest.Policy{First: 100 * time.Millisecond, Growth: 2, Jitter: retrytest.AddedJitter, JitterAmount: 100 * time.Millisecond, OpenTop: true, Attempts: 10}.Windows()...)
	if onRetry != 10 {
		t.Errorf("OnRetry calls = %d, want 10 (one per attempt, the last included)", onRetry)
	}
}

// On a fake clock: nothing at 999ms, then attempts at exactly 1s, 3s, 7s and
// 12s (BackOffDelay, 1s doubling, capped at 5s).
func TestRecipeFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	returned := start(t, clk, sw, retry.Attempts(5), retry.Delay(time.Second),
		retry.DelayType(retry.BackOffDelay), retry.MaxDelay(5*time.Second))
	clk.Step(999 * time.Millisecond)
	retrytest.AssertAttempts(t, sw, 1)
	clk.Step(time.Minute)
	returned()
	retrytest.AssertAttemptsAt(t, sw, 0, time.Second, 3*time.Second, 7*time.Second, 12*time.Second)
}

// Cancellation during the wait: retry.Do returns at once with every
// attempt's error and the context's. The After it was waiting on stays
// pending, but nothing can receive from it any more, so fakeclock's leak
// check lets it go.
func TestRecipeCancelDuringTheWait(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	ctx, cancel := context.WithCancel(t.Context())
	returned := start(t, clk, sw, retry.Context(ctx), retry.Delay(time.Second), retry.DelayType(retry.FixedDelay))
	clk.Step(1500 * time.Millisecond) // attempts at 0 and 1s, waiting until 2s
	cancel()
	clk.Step(0)
	call := returned()
	if err := call.Err(); !errors.Is(err, context.Canceled) || !errors.Is(err, errUnavailable) {
		t.Errorf("retry.Do() = %v, want the attempts' %v and %v", err, errUnavailable, context.Canceled)
	}
	retrytest.AssertAttemptsAt(t, sw, 0, time.Second)
	retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 1500 * time.Millisecond, Err: context.Canceled})
}

// A deadline on the fake clock ends the wait at the deadline, at 2.5s.
func TestRecipeDeadlineDuringTheWait(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 2500*time.Millisecond)
	defer cancel()
	call := recorder.Start(clk, func() error {
		return retry.Do(fail(sw), retry.WithTimer(clk), retry.Context(ctx), retry.Delay(time.Second), retry.DelayType(retry.FixedDelay))
	})
	clk.Step(time.Minute)
	retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2500 * time.Millisecond, Err: context.DeadlineExceeded})
}
