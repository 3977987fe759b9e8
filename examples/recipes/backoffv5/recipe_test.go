package backoffv5_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// script is an operation that marks each attempt on sw and returns errs in
// turn, the last one for every attempt after.
func script(sw *recorder.Stopwatch, errs ...error) backoff.Operation[int] {
	n := 0 // attempts so far
	return func() (int, error) {
		sw.Attempt()
		n++
		return n, errs[min(n, len(errs))-1]
	}
}

// The defaults (500ms ×1.5, ±50%) with MaxInterval 4s: the cap applies before
// the jitter, WithMaxTries(10) makes 10 attempts, and Notify is told each
// delay before it is waited.
func TestRecipeJitteredSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw, notified := recorder.NewStopwatch(), []time.Duration{}
		b := backoff.NewExponentialBackOff()
		b.MaxInterval = 4 * time.Second
		_, _ = backoff.Retry(t.Context(), script(sw, errUnavailable), backoff.WithBackOff(b), backoff.WithMaxTries(10),
			backoff.WithNotify(func(_ error, d time.Duration) { notified = append(notified, d) }))
		retrytest.AssertDelaysWithin(t, sw, retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: 4 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 10, Tolerance: time.Nanosecond}.Windows()...)
		retrytest.AssertDelays(t, sw, notified...)
	})
}

// An overall deadline ends the loop mid-wait, at the deadline, with
// context.DeadlineExceeded.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		sw := recorder.NewStopwatch()
		b := &backoff.ExponentialBackOff{InitialInterval: 500 * time.Millisecond, Multiplier: 2, MaxInterval: time.Minute}
		call := recorder.Start(nil, func() error {
			_, err := backoff.Retry(ctx, script(sw, errUnavailable), backoff.WithBackOff(b))
			return err
		})
		bubble.SleepAndWait(time.Minute)
		retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
	})
}
