package failsafego_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// A pitfall of testing WithMaxDuration in a bubble: no time passes while the
// operation runs, so after 1s, 2s and a last wait trimmed to 2s, elapsed is
// exactly 5s, and the strict "elapsed > max" never stops the loop: it retries
// with no delay until WithMaxRetries does (with -1, for ever).
func TestRecipeMaxDurationInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		run(sw, retrypolicy.NewBuilder[any]().WithBackoff(time.Second, time.Minute).WithMaxDuration(5*time.Second).WithMaxRetries(8))
		retrytest.AssertDelays(t, sw, time.Second, 2*time.Second, 2*time.Second, 0, 0, 0, 0, 0)
	})
}
