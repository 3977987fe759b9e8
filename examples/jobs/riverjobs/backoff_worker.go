package riverjobs

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/retrykit/retrykit/examples/jobs/delivery"
)

// BackoffWorker is DeliverWorker with the seed's retry schedule on the
// worker rather than the client, as many River users write it: River asks
// a worker's NextRetry first, and the client's RetryPolicy only when it
// returns the zero time (river@v0.51.2
// internal/jobexecutor/job_executor.go:556-562). Register it as any
// worker: river.AddWorker(workers, &riverjobs.BackoffWorker{}).
//
// NextRetry reads the wall clock, and River's time stub
// (river.Config.Test.Time) does not reach it: the stub reaches a
// ClientRetryPolicy that embeds baseservice.BaseService (RetryPolicy), not
// a worker. So its test runs NextRetry in a testing/synctest bubble, whose
// clock stands still while NextRetry reads it (TestBackoffWorkerConforms).
type BackoffWorker struct {
	DeliverWorker

	// Rand draws the jitter; nil means math/rand/v2's runtime-seeded
	// source.
	Rand *rand.Rand

	mu sync.Mutex // guards Rand: River calls NextRetry from every executor
}

// NextRetry returns when job's next attempt runs: now plus
// delivery.Backoff for the errors job has recorded (0 for the first retry).
func (w *BackoffWorker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return time.Now().Add(delivery.Backoff(len(job.Errors), w.Rand))
}
