package riverjobs_test

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/riverqueue/river/rivershared/baseservice"
	"github.com/riverqueue/river/rivertype"
)

// What follows is fleetsim's paste of seed 000's policy as River's
// ClientRetryPolicy (examples/fleetsim/paste/testdata/river_seed.golden),
// pasted as a user would: TestAdvisedPasteIsFleetsims keeps it that
// output, and TestAdvisedPasteConforms holds it to the seed's contract.

// AdvisedRetryPolicy is fleetsim's advice for River: 5s doubling, full
// jitter under a 1h cap, 13 attempts (12 retries). Set it in the client's
// Config with the attempts:
//
//	&river.Config{RetryPolicy: &AdvisedRetryPolicy{}, MaxAttempts: 13, ...}
//
// Imports: math, math/rand/v2, time,
// github.com/riverqueue/river/rivershared/baseservice and
// github.com/riverqueue/river/rivertype.
type AdvisedRetryPolicy struct {
	// BaseService gives the policy River's clock: the client sets it, and
	// a test's river.Config.Test.Time stub with it.
	baseservice.BaseService
}

// NextRetry returns when the job runs again.
func (p *AdvisedRetryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	now := time.Now().UTC()
	if p.Time != nil {
		now = p.Time.Now().UTC()
	}
	// n is the errors the job had before this one, 0 for the first retry.
	n := len(job.Errors)
	// The ceiling: 5s·2^n, at most the 1h cap.
	c := time.Hour
	f := float64(5*time.Second) * math.Pow(2, float64(n))
	if f < float64(c) {
		c = time.Duration(f)
	}
	// Full jitter: [0, c].
	d := rand.N(c + 1)
	return now.Add(d)
}
