package riverjobs_test

import (
	"context"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivershared/riversharedtest"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// contract is seed 000's policy as the River adapter ships it: 5s
// doubling to a one-hour cap, full jitter under the capped ceiling, 13
// attempts (12 retries); a 4xx other than 408 and 429, and a certificate
// nobody trusts, cancel the job. No Hints: River's NextRetry never sees
// the error, so a Retry-After cannot reach the policy.
var contract = conformance.Spec{
	Policy:       retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
	Retryable:    []int{408, 429, 500, 501, 502, 503, 504},
	Permanent:    []int{400, 401, 403, 404, 410, 422},
	PermanentErr: x509.UnknownAuthorityError{},
}

// riverDecide is River's side of one failed delivery as a pure policy,
// each step the framework's own code or a rule quoted from it: the
// worker's Work classifies the outcome; River cancels a job whose worker
// returned river.JobCancel (river@v0.51.2
// internal/jobexecutor/job_executor.go:541-546) and discards one whose
// attempt reached its MaxAttempts without asking the policy (:548-553);
// otherwise it asks the ClientRetryPolicy, NextRetry (:560-562). The job
// the policy sees after attempt failed+1 fails has failed errors recorded
// (the current one is recorded with the retry, not before). next is the
// delay the policy schedules for that job.
func riverDecide(maxAttempts int, next func(*rivertype.JobRow, *rand.Rand) time.Duration) retrytest.DecideFunc {
	return func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		job := &rivertype.JobRow{
			Attempt:     failed + 1,
			MaxAttempts: maxAttempts,
			Errors:      make([]rivertype.AttemptError, failed),
			Kind:        riverjobs.DeliverArgs{}.Kind(),
		}
		w := &riverjobs.DeliverWorker{Client: &http.Client{Transport: httpscript.FromOutcome(o)}}
		err := w.Work(context.Background(), &river.Job[riverjobs.DeliverArgs]{JobRow: job, Args: riverjobs.DeliverArgs{ID: "evt-1", URL: "https://hooks.example.com/in"}})
		var cancel *rivertype.JobCancelError
		switch {
		case err == nil:
			return retrytest.Decision{Reason: "delivered"} // no outcome of the suite is a success: the suite says what it expected
		case errors.As(err, &cancel):
			return retrytest.Decision{Reason: "permanent"}
		case job.Attempt >= job.MaxAttempts:
			return retrytest.Decision{Reason: "exhausted"}
		}
		return retrytest.Decision{Retry: true, Delay: next(job, rng), Reason: "backoff"}
	}
}

// seedPolicy is the adapter's RetryPolicy, drawing from the suite's
// source, on River's time stub pinned at now: the delay it schedules.
func seedPolicy(now time.Time) func(*rivertype.JobRow, *rand.Rand) time.Duration {
	return func(job *rivertype.JobRow, rng *rand.Rand) time.Duration {
		p := &riverjobs.RetryPolicy{Rand: rng}
		stub := &riversharedtest.TimeStub{}
		stub.StubNow(now)
		p.Time = stub
		return p.NextRetry(job).Sub(now)
	}
}

// The seed's policy, through River's own NextRetry, against the whole
// contract of a pure policy.
func TestRetryPolicyConforms(t *testing.T) {
	conformance.TestPolicy(t, contract, riverDecide(riverjobs.MaxAttempts, seedPolicy(t0)))
}
