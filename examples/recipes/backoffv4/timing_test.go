package backoffv4_test

import (
	"context"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// Nothing happens at 499ms; the retry comes at exactly 500ms.
func TestRecipeRetryAtExactly500ms(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	loop := start(clk, sw, backoff.WithMaxRetries(backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)), 1))
	loop.Armed(t)
	if err := clk.AdvanceAndDrain(t.Context(), 499*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	retrytest.AssertAttempts(t, sw, 1)
	loop.Finish(t)
	retrytest.AssertAttemptsAt(t, sw, 0, 500*time.Millisecond)
}

// A context on the fake clock ends the loop mid-wait, at its deadline; the
// timer's Stop leaves nothing pending, which fakeclock's leak check verifies.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	ctx, cancel := clk.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)) // 500ms, 750ms, 1.125s
	run := start(clk, sw, backoff.WithContext(b, ctx)).Finish(t)
	run.Deadline = 2 * time.Second
	retrytest.AssertAbortedAtDeadline(t, sw, run)
}
