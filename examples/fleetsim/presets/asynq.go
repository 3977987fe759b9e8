package presets

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// asynqRetries is asynq's default MaxRetry (asynq@v0.26.0 client.go:307):
// retries, not attempts; asynq archives a task retried that often
// without asking its RetryDelayFunc (processor.go:343-345).
const asynqRetries = 25

// Asynq returns asynq's default retry policy, DefaultRetryDelayFunc
// (asynq@v0.26.0 server.go:401-405, Sidekiq's formula): a task retried n
// times so far (0 for the first retry) runs again n⁴ + 15 + k·(n+1)
// seconds later, k drawn from rand.IntN(30), within
// [n⁴+15, n⁴+15+29·(n+1)] seconds in steps of n+1; 26 attempts, 25
// retries, at most 492h27m (20.5 days) in all.
func Asynq() Preset {
	return Preset{
		Name: "asynq", Title: "asynq's default",
		About:    "n^4 + 15 + U{0..29}·(n+1) s for the retry after n, 26 attempts (25 retries)",
		Attempts: asynqRetries + 1,
		Decide:   asynqDecide,
		window: func(k int) retrytest.Window {
			n := k - 1
			lo := n*n*n*n + 15
			return retrytest.Window{Min: time.Duration(lo) * time.Second, Max: time.Duration(lo+29*(n+1)) * time.Second}
		},
	}
}

func asynqDecide(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	if failed < 0 || failed >= asynqRetries {
		return retrytest.Decision{Reason: "exhausted"}
	}
	n := failed // msg.Retried, processor.go:357
	s := int(math.Pow(float64(n), 4)) + 15 + rng.IntN(30)*(n+1)
	return retrytest.Decision{Retry: true, Delay: time.Duration(s) * time.Second, Reason: "backoff"}
}
