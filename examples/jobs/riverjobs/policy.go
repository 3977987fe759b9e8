package riverjobs

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/riverqueue/river/rivershared/baseservice"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/examples/jobs/delivery"
	"github.com/retrykit/retrykit/examples/webhook"
)

// MaxAttempts is the seed's 13 deliveries: the first and
// webhook.MaxRetries (12) retries. River counts attempts, the first one
// included (river.Config.MaxAttempts, river.InsertOpts.MaxAttempts), and
// discards a job whose last attempt fails without asking its retry
// policy; so the policy below never gives up, and this number is where
// the seed's "stop after 12 retries" lives. Pass it in the client's
// Config.
const MaxAttempts = webhook.MaxRetries + 1

// RetryPolicy is seed 000's retry policy as River's ClientRetryPolicy
// (river.Config.RetryPolicy): after a job's delivery fails, its next
// attempt runs after delivery.Backoff(e), a delay drawn uniformly from
// [0, min(webhook.Cap, webhook.Base·2^e)], both ends included — full
// jitter under a ceiling capped first, 5s doubling to an hour — where e
// is the number of errors the job had recorded before this one: 0 for the
// first retry, 11 for the last. River's default policy counts the same
// way, errors and not attempts, because snoozes used to move the attempt
// count (river@v0.51.2 internal/retrypolicy/default.go:32-37).
//
// The zero value is ready to use. Set it in the client's Config, with
// MaxAttempts:
//
//	&river.Config{RetryPolicy: &riverjobs.RetryPolicy{}, MaxAttempts: riverjobs.MaxAttempts, Workers: workers}
//
// A RetryPolicy is safe for concurrent use: River calls NextRetry from
// every executor at once.
type RetryPolicy struct {
	// BaseService gives the policy River's clock. A River client
	// initializes every retry policy that embeds it when the client is
	// made (river@v0.51.2 client.go:944-946), so the time stub of a
	// test's river.Config.Test.Time reaches NextRetry as it reaches
	// River's own default policy. A policy that reads the wall clock
	// instead schedules its retry from another "now" than the executor
	// that checks it, and one in the past falls back to River's default
	// policy, silently.
	baseservice.BaseService

	// Rand draws the jitter; nil means math/rand/v2's runtime-seeded
	// source. Its draws are serialized, so one *rand.Rand may serve every
	// executor of a client.
	Rand *rand.Rand

	mu sync.Mutex // guards Rand
}

// NextRetry returns when job's next attempt runs: River's clock (the
// embedded BaseService's, or the wall clock in UTC when no client has set
// it) plus the policy's delay for the errors job has recorded.
func (p *RetryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return p.now().Add(p.delay(len(job.Errors)))
}

// delay draws the delay of the retry after errors earlier errors.
func (p *RetryPolicy) delay(errors int) time.Duration {
	if p.Rand == nil {
		return delivery.Backoff(errors, nil)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return delivery.Backoff(errors, p.Rand)
}

func (p *RetryPolicy) now() time.Time {
	if p.Time != nil {
		return p.Time.Now().UTC()
	}
	return time.Now().UTC()
}
