package backoffv5_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// script is an operation that marks each attempt on sw and returns errs in
// turn, the last one for every attempt after.
func script(sw *retrytest.Stopwatch, errs ...error) backoff.Operation[int] {
	return func() (int, error) {
		sw.Attempt()
		n := len(sw.Attempts())
		return n, errs[min(n, len(errs))-1]
	}
}

// The defaults (500ms ×1.5, ±50%) with MaxInterval 4s: the cap applies before
// the jitter, WithMaxTries(10) makes 10 attempts, and Notify is told each
// delay before it is waited.
func TestRecipeJitteredSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw, notified := retrytest.NewStopwatch(), []time.Duration{}
		b := backoff.NewExponentialBackOff()
		b.MaxInterval = 4 * time.Second
		_, _ = backoff.Retry(t.Context(), script(sw, errUnavailable), backoff.WithBackOff(b), backoff.WithMaxTries(10),
			backoff.WithNotify(func(_ error, d time.Duration) { notified = append(notified, d) }))
		retrytest.AssertDelaysWithin(t, sw, retrytest.Exponential(500*time.Millisecond, 1.5, 4*time.Second, 10,
			retrytest.WithRandomizationFactor(0.5), retrytest.WithTolerance(time.Nanosecond))...)
		retrytest.AssertDelays(t, sw, notified...)
	})
}

// An overall deadline ends the loop mid-wait, at the deadline, with
// context.DeadlineExceeded.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := retrytest.NewStopwatch()
		b := &backoff.ExponentialBackOff{InitialInterval: 500 * time.Millisecond, Multiplier: 2, MaxInterval: time.Minute}
		run := retrytest.RunWithDeadline(t.Context(), 2*time.Second, func(ctx context.Context) error {
			_, err := backoff.Retry(ctx, script(sw, errUnavailable), backoff.WithBackOff(b))
			return err
		})
		retrytest.AssertAbortedAtDeadline(t, sw, run)
	})
}
