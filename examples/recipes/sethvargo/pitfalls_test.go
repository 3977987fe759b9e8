package sethvargo_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sethvargo/go-retry"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// The order of the middlewares decides the ladder: capped, then jittered, a
// delay may exceed the cap by 10%; jittered, then capped, none does.
func TestRecipeJitterAndCapOrder(t *testing.T) {
	for _, capOutside := range []bool{false, true} {
		t.Run(fmt.Sprintf("cap outside the jitter: %t", capOutside), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				exp := retry.NewExponential(500 * time.Millisecond)
				b := retry.WithJitterPercent(10, retry.WithCappedDuration(3*time.Second, exp))
				p := retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 3 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, Attempts: 8, Tolerance: time.Nanosecond}
				if capOutside {
					b = retry.WithCappedDuration(3*time.Second, retry.WithJitterPercent(10, exp))
					p.CapAfterJitter = true
				}
				sw := recorder.NewStopwatch()
				_ = do(t.Context(), sw, retry.WithMaxRetries(7, b))
				retrytest.AssertDelaysWithin(t, sw, p.Windows()...)
			})
		})
	}
}

// WithMaxDuration reads time.Now when it is built. Built outside the bubble,
// it measures the bubble's clock, which starts in 2000, against real time:
// its 10s budget never runs out and no wait is trimmed.
func TestRecipeMaxDurationBuiltOutsideTheBubble(t *testing.T) {
	outside := retry.WithMaxRetries(5, retry.WithMaxDuration(10*time.Second, retry.NewExponential(time.Second)))
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		_ = do(t.Context(), sw, outside)
		retrytest.AssertDelays(t, sw, time.Second, 2*time.Second, 4*time.Second, 8*time.Second, 16*time.Second)
	})
}
