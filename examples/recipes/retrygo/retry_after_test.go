package retrygo_test

import (
	"errors"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// rateLimited is a 429 whose Retry-After the operation kept.
type rateLimited struct{ retryAfter string }

func (e rateLimited) Error() string { return "429 Too Many Requests, Retry-After: " + e.retryAfter }

// honourRetryAfter is a DelayType that waits the server's hint when there is a
// usable one, and backs off otherwise.
func honourRetryAfter(n uint, err error, c *retry.Config) time.Duration {
	var rl rateLimited
	if errors.As(err, &rl) {
		if d, perr := retryafter.Parse(rl.retryAfter, time.Time{}); perr == nil {
			return d
		}
	}
	return retry.BackOffDelay(n, err, c)
}

// retry-go has no Retry-After support; with a DelayType of your own, MaxDelay
// clamps the hint too: a Retry-After of 120 waits 30s.
func TestRecipeRetryAfterThroughDelayType(t *testing.T) {
	rec := recorder.New()
	errs := []error{rateLimited{"120"}, rateLimited{"soon"}, errUnavailable, nil}
	_ = retry.Do(func() error { rec.Attempt(); return errs[len(rec.Attempts())-1] }, retry.WithTimer(rec),
		retry.Delay(time.Second), retry.MaxDelay(30*time.Second), retry.DelayType(honourRetryAfter))
	retrytest.AssertDelays(t, rec, 30*time.Second, 2*time.Second, 4*time.Second)
}
