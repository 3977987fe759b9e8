package failsafego_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errUnavailable = errors.New("503 Service Unavailable")

// run executes an always-failing operation under the policy b builds, marking
// each attempt on sw, and returns the delays OnRetryScheduled announced.
func run(sw *recorder.Stopwatch, b retrypolicy.Builder[any]) (scheduled []time.Duration) {
	rp := b.OnRetryScheduled(func(e failsafe.ExecutionScheduledEvent[any]) { scheduled = append(scheduled, e.Delay) }).Build()
	_ = failsafe.With[any](rp).Run(func() error { sw.Attempt(); return errUnavailable })
	return scheduled
}

// Exact schedules: WithBackoff doubles up to its max, WithMaxRetries counts
// retries, and without it a policy makes 2 retries.
func TestRecipeBackoffSchedule(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    retrypolicy.Builder[any]
		want []retrytest.Window
	}{
		{"5 retries", retrypolicy.NewBuilder[any]().WithBackoff(100*time.Millisecond, time.Second).WithMaxRetries(5),
			retrytest.Policy{First: 100 * time.Millisecond, Growth: 2, Cap: time.Second, Attempts: 6}.Windows()},
		{"default: 2 retries", retrypolicy.NewBuilder[any]().WithBackoff(100*time.Millisecond, time.Second),
			retrytest.Policy{First: 100 * time.Millisecond, Growth: 2, Cap: time.Second, Attempts: 3}.Windows()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sw := recorder.NewStopwatch()
				scheduled := run(sw, tc.b)
				retrytest.AssertDelaysWithin(t, sw, tc.want...)
				retrytest.AssertDelays(t, sw, scheduled...)
			})
		})
	}
}

// WithJitterFactor applies to the capped delay, so a delay may reach 1.5×
// the 2s max.
func TestRecipeJitterAfterTheCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		run(sw, retrypolicy.NewBuilder[any]().WithBackoff(time.Second, 2*time.Second).WithJitterFactor(0.5).WithMaxRetries(6))
		retrytest.AssertDelaysWithin(t, sw, retrytest.Policy{First: time.Second, Growth: 2, Cap: 2 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: 7, Tolerance: time.Nanosecond}.Windows()...)
	})
}
