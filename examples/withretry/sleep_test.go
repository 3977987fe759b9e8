package withretry_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// timed is the function under retry for the tests of the real sleep: each
// attempt is timed on sw and fails with a 503, whatever its context says,
// up to attempt 50, which fails with errRunaway as call's does.
func timed(sw *recorder.Stopwatch) func(context.Context, int) (string, error) {
	return func(_ context.Context, attempt int) (string, error) {
		sw.Attempt()
		if attempt >= 50 {
			return "", errRunaway
		}
		return "", errUnavailable
	}
}

// Without a Sleep in Deps, WithRetry waits on a timer of the time package,
// which is fake inside a synctest bubble: the attempts come at 0, 500ms,
// 1.5s, 3.5s and 7.5s of the bubble's clock, at once in real time.
func TestRealSleepWaitsTheDelays(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		_, _ = withretry.WithRetry(t.Context(), timed(sw), withretry.Options{}, withretry.Deps{Random: seqrand.Fixed(0.5).Float64})
		gomega.NewWithT(t).Expect(sw).To(matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond, 3500*time.Millisecond, 7500*time.Millisecond))
	})
}

// A context that ends during the real sleep cuts the wait short: under a
// 2s deadline, the attempts at 0, 500ms and 1.5s are followed by a 2s wait
// that ends at the deadline, with the context's error and no further
// attempt.
func TestRealSleepIsCutShortWhenTheContextEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		call := bubble.CallWithTimeout(2*time.Second, func(ctx context.Context) error {
			_, err := withretry.WithRetry(ctx, timed(sw), withretry.Options{}, withretry.Deps{Random: seqrand.Fixed(0.5).Float64})
			return err
		})
		retrytest.AssertStopped(t, sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
	})
}
