package sethvargo_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sethvargo/go-retry"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// do runs retry.Do with b and an operation that marks each attempt on sw and
// always fails with a retryable error.
func do(ctx context.Context, sw *recorder.Stopwatch, b retry.Backoff) error {
	return retry.Do(ctx, b, func(context.Context) error { sw.Attempt(); return retry.RetryableError(errUnavailable) })
}

// Exact schedules, each Backoff built inside its bubble.
func TestRecipeSchedules(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    func() retry.Backoff
		want []time.Duration
	}{
		{"capped exponential; WithMaxRetries counts retries", func() retry.Backoff {
			return retry.WithMaxRetries(5, retry.WithCappedDuration(3*time.Second, retry.NewExponential(time.Second)))
		}, []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second, 3 * time.Second}},
		{"Fibonacci: 1 2 3 5 8, not the README's 1 1 2 3 5", func() retry.Backoff {
			return retry.WithMaxRetries(5, retry.NewFibonacci(time.Second))
		}, []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second, 8 * time.Second}},
		{"WithMaxDuration trims the last wait", func() retry.Backoff {
			return retry.WithMaxDuration(10*time.Second, retry.NewExponential(time.Second))
		}, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 3 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sw := recorder.NewStopwatch()
				_ = do(t.Context(), sw, tc.b())
				retrytest.AssertDelays(t, sw, tc.want...)
			})
		})
	}
}

// An overall deadline ends the loop mid-wait, at the deadline; Do returns the
// context's error, not the operation's.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		call := bubble.CallWithTimeout(2*time.Second, func(ctx context.Context) error {
			return do(ctx, sw, retry.NewExponential(500*time.Millisecond))
		})
		retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
	})
}
