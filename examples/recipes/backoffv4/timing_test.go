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
	done := start(clk, sw, backoff.WithMaxRetries(backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)), 1))
	for _, step := range []struct {
		advance  time.Duration
		attempts int
	}{{499 * time.Millisecond, 1}, {time.Millisecond, 2}} {
		if err := clk.AdvanceAndDrain(t.Context(), step.advance); err != nil {
			t.Fatal(err)
		}
		retrytest.AssertAttempts(t, sw, step.attempts)
	}
	<-done
}

// A context on the fake clock ends the loop mid-wait, at its deadline; the
// timer's Stop leaves nothing pending, which fakeclock's leak check verifies.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	ctx, cancel := clk.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0)) // 500ms, 750ms, 1.125s
	done := start(clk, sw, backoff.WithContext(b, ctx))
	if err := clk.AdvanceAndDrain(t.Context(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
	run := <-done
	run.Deadline = 2 * time.Second
	retrytest.AssertAbortedAtDeadline(t, sw, run)
}
