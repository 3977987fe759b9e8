package asynqjobs

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/examples/jobs/delivery"
	"github.com/retrykit/retrykit/examples/webhook"
)

// MaxRetry is the seed's 12 retries (13 deliveries), as asynq counts
// them: a task's asynq.MaxRetry option counts retries, not attempts, and
// asynq archives a task whose retries are spent without asking its
// RetryDelayFunc (asynq@v0.26.0 processor.go:343-345). So RetryDelay
// never gives up, and this number is where the seed's "stop after 12
// retries" lives. Pass it to every task, as NewTask does.
const MaxRetry = webhook.MaxRetries

// RetryDelay returns seed 000's retry policy as asynq's RetryDelayFunc
// (asynq.Config.RetryDelayFunc): after a task's delivery fails for the
// (n+1)-th time, its next run is delivery.Backoff(n) later, a delay drawn
// uniformly from [0, min(webhook.Cap, webhook.Base·2^n)], both ends
// included — full jitter under a ceiling capped first. n is asynq's retry
// count, the task's Retried before this failure: 0 for the first retry.
//
// rng draws the jitter; nil means math/rand/v2's runtime-seeded source.
// The draws are serialized, so one *rand.Rand may serve every worker of a
// server. The policy reads neither the error nor the task: a permanent
// failure never reaches it (Handler returns it wrapping asynq.SkipRetry).
func RetryDelay(rng *rand.Rand) asynq.RetryDelayFunc {
	var mu sync.Mutex
	return func(n int, _ error, _ *asynq.Task) time.Duration {
		if rng == nil {
			return delivery.Backoff(n, nil)
		}
		mu.Lock()
		defer mu.Unlock()
		return delivery.Backoff(n, rng)
	}
}
