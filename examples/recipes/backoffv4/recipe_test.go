package backoffv4_test

import (
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// fail is an operation that marks each attempt on sw and always fails.
func fail(sw *recorder.Stopwatch) backoff.Operation {
	return func() error { sw.Attempt(); return errUnavailable }
}

// start runs backoff's retry loop on clk in a goroutine, telling notify of
// each wait (notify may be nil). The function it returns reports the call,
// which has returned; it fails the test if the loop is still running (after
// a Step the loop has settled, so it would be waiting for something).
func start(t *testing.T, clk *fakeclock.Clock, sw *recorder.Stopwatch, b backoff.BackOff, notify backoff.Notify) (returned func() *recorder.Call) {
	call := recorder.Start(clk, func() error {
		return backoff.RetryNotifyWithTimer(fail(sw), b, notify, clockctx.NewTimer(clk))
	})
	return func() *recorder.Call {
		t.Helper()
		if !call.Returned() {
			t.Fatalf("the retry loop has not returned; pending on the clock: %v", clk.Pending())
		}
		return call
	}
}

// The defaults (500ms ×1.5, ±50%) with MaxInterval 4s: the cap applies before
// the jitter, and WithMaxRetries(8) makes 9 attempts.
func TestRecipeJitteredSchedule(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithMaxInterval(4*time.Second))
	var waits []time.Duration // each wait the loop asked its timer for
	returned := start(t, clk, sw, backoff.WithMaxRetries(b, 8), func(_ error, d time.Duration) { waits = append(waits, d) })
	clk.Step(time.Minute)
	if got := returned(); !errors.Is(got.Err(), errUnavailable) {
		t.Errorf("RetryNotifyWithTimer() = %v, want %v", got.Err(), errUnavailable)
	}
	retrytest.AssertDelaysWithin(t, sw, retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: 4 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 9, Tolerance: time.Nanosecond}.Windows()...)
	retrytest.AssertDelays(t, sw, waits...) // each attempt came when its timer fired
}

// MaxElapsedTime reads the fake Clock: after waits of 1s, 2s and 4s, the next
// wait (8s) would end past 10s, so the loop stops at 7s without waiting.
func TestRecipeMaxElapsedTime(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk), backoff.WithRandomizationFactor(0),
		backoff.WithInitialInterval(time.Second), backoff.WithMultiplier(2), backoff.WithMaxElapsedTime(10*time.Second))
	returned := start(t, clk, sw, b, nil)
	clk.Step(time.Minute)
	if got := returned(); got.At() != 7*time.Second {
		t.Errorf("RetryNotifyWithTimer() returned at %v, want 7s", got.At())
	}
	retrytest.AssertAttemptsAt(t, sw, 0, time.Second, 3*time.Second, 7*time.Second)
}
