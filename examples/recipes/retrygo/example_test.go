package retrygo_test

import (
	"fmt"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// A recorder is a retry.Timer: retry.Do runs its whole schedule at once on
// this goroutine. BackOffDelay without jitter, capped at 5s, is exact; the
// attempts are counted as attempts, not retries.
func Example() {
	rec := recorder.New()
	err := retry.Do(func() error {
		rec.Attempt()
		rec.AttemptResult(errUnavailable)
		return errUnavailable
	}, retry.WithTimer(rec), retry.Attempts(5), retry.LastErrorOnly(true),
		retry.Delay(time.Second), retry.DelayType(retry.BackOffDelay), retry.MaxDelay(5*time.Second))
	fmt.Println(err)
	fmt.Println(rec)
	fmt.Println(retrytest.CheckDelaysWithin(rec, retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second, Attempts: 5}.Windows()...))
	// Output:
	// 503 Service Unavailable
	// recorder: 5 attempts, 4 delays, total 12s
	//   attempt  delay  at   result
	//   1        0s     0s   503 Service Unavailable
	//   2        1s     1s   503 Service Unavailable
	//   3        2s     3s   503 Service Unavailable
	//   4        4s     7s   503 Service Unavailable
	//   5        5s     12s  503 Service Unavailable
	// <nil>
}
