package backoffv4_test

import (
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/recorder"
)

// Without jitter the schedule is exact: 1s doubling to a 5s cap, and
// WithMaxRetries(4) makes 5 attempts. The recording timer fires at once, so the
// loop runs on this goroutine and takes no time.
func Example_recorderTimer() {
	rec := recorder.New()
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0), backoff.WithInitialInterval(time.Second),
		backoff.WithMultiplier(2), backoff.WithMaxInterval(5*time.Second), backoff.WithMaxElapsedTime(0))
	err := backoff.RetryNotifyWithTimer(func() error {
		rec.Attempt()
		rec.AttemptResult(errUnavailable)
		return errUnavailable
	}, backoff.WithMaxRetries(b, 4), nil, rec.InstantTimer())
	fmt.Println(err)
	fmt.Println(rec)
	// Output:
	// 503 Service Unavailable
	// recorder: 5 attempts, 4 delays, total 12s
	//   attempt  delay  at   result
	//   1        0s     0s   503 Service Unavailable
	//   2        1s     1s   503 Service Unavailable
	//   3        2s     3s   503 Service Unavailable
	//   4        4s     7s   503 Service Unavailable
	//   5        5s     12s  503 Service Unavailable
}
