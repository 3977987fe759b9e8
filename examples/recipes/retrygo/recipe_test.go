package retrygo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/examples/recipes/internal/fakeloop"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// fail is an operation that marks each attempt on a and always fails.
func fail(a interface{ Attempt() }) retry.RetryableFunc {
	return func() error { a.Attempt(); return errUnavailable }
}

// The defaults: ten attempts, 100ms·2^k plus [0, 100ms) of additive jitter.
// OnRetry fires after the last attempt as well (avast/retry-go#31).
func TestRecipeDefaults(t *testing.T) {
	rec, onRetry := recorder.New(), 0
	_ = retry.Do(fail(rec), retry.WithTimer(rec), retry.OnRetry(func(uint, error) { onRetry++ }))
	retrytest.AssertDelaysWithin(t, rec, retrytest.Exponential(100*time.Millisecond, 2, 0, 10,
		retrytest.WithAdditiveJitter(100*time.Millisecond), retrytest.WithExclusiveMax())...)
	if onRetry != 10 {
		t.Errorf("OnRetry calls = %d, want 10 (one per attempt, the last included)", onRetry)
	}
}

// On a fake clock: nothing at 999ms, then attempts at exactly 1s, 3s, 7s and
// 12s (BackOffDelay, 1s doubling, capped at 5s).
func TestRecipeFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	loop := fakeloop.Start(clk, func() error {
		return retry.Do(fail(sw), retry.WithTimer(clk), retry.Attempts(5), retry.Delay(time.Second),
			retry.DelayType(retry.BackOffDelay), retry.MaxDelay(5*time.Second))
	})
	loop.Armed(t)
	if err := clk.AdvanceAndDrain(t.Context(), 999*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	retrytest.AssertAttempts(t, sw, 1)
	loop.Finish(t)
	retrytest.AssertAttemptsAt(t, sw, 0, time.Second, 3*time.Second, 7*time.Second, 12*time.Second)
}
