package backoffv4_test

import (
	"context"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// Nothing happens at 499ms; the retry comes at exactly 500ms.
func TestRecipeRetryAtExactly500ms(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	returned := start(t, clk, sw, backoff.WithMaxRetries(backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)), 1), nil)
	clk.Step(499 * time.Millisecond)
	retrytest.AssertAttempts(t, sw, 1)
	clk.Step(time.Millisecond)
	returned()
	retrytest.AssertAttemptsAt(t, sw, 0, 500*time.Millisecond)
}

// A deadline on the fake clock ends the loop mid-wait, at its deadline; the
// timer's Stop leaves nothing pending, which fakeclock's leak check verifies.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)) // 500ms, 750ms, 1.125s
	ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 2*time.Second)
	defer cancel()
	call := recorder.Start(clk, func() error {
		return backoff.RetryNotifyWithTimer(fail(sw), backoff.WithContext(b, ctx), nil, clockctx.NewTimer(clk))
	})
	clk.Step(time.Minute)
	retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
}
