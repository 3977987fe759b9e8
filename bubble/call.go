package bubble

import (
	"context"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// CallWithTimeout calls f under a context whose deadline is d from now, on
// the bubble's clock, and returns once f has returned, or an hour of
// bubble time past the deadline if it has not — which costs no real time:
// the one call a test of a deadline makes, for retrytest.CheckStopped.
//
//	call := bubble.CallWithTimeout(2*time.Second, func(ctx context.Context) error { return client.Do(ctx, req) })
//	retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
//
// A call still running after that hour keeps running: cancel what it
// waits on before the test ends, or the bubble never does. CallWithTimeout
// panics outside a bubble, where the hour would be a real one.
func CallWithTimeout(d time.Duration, f func(ctx context.Context) error) *recorder.Call {
	if !Inside() {
		panic("bubble: CallWithTimeout: not inside a testing/synctest bubble, where the deadline and the hour after it would be real time; " +
			"call it from the function passed to synctest.Test, or use recorder.Start with clockctx.WithTimeout on a fake clock")
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	done := make(chan struct{})
	call := recorder.Start(nil, func() error {
		defer close(done)
		defer cancel()
		return f(ctx)
	})
	select {
	case <-done:
		SleepAndWait(0) // the call's goroutine records its return
	case <-time.After(d + time.Hour):
	}
	return call
}
