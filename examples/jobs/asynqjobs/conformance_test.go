package asynqjobs_test

import (
	"context"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/examples/jobs/asynqjobs"
	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// contract is seed 000's policy as the asynq adapter ships it: 5s
// doubling to a one-hour cap, full jitter under the capped ceiling, 13
// attempts (MaxRetry 12); a 4xx other than 408 and 429, and a certificate
// nobody trusts, are archived at once. No Hints: RetryDelay does not read
// a Retry-After (asynq would let it: the RetryDelayFunc sees the error).
var contract = conformance.Spec{
	Policy:       retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
	Retryable:    []int{408, 429, 500, 501, 502, 503, 504},
	Permanent:    []int{400, 401, 403, 404, 410, 422},
	PermanentErr: x509.UnknownAuthorityError{},
}

// asynqDecide is asynq's side of one failed delivery as a pure policy,
// each step the framework's own code or a rule quoted from it: the
// handler's ProcessTask classifies the outcome; asynq archives a task
// whose error wraps SkipRetry, or whose Retried has reached its MaxRetry
// (asynq@v0.26.0 processor.go:343-345), without asking the policy;
// otherwise it calls the RetryDelayFunc with n = Retried, the retries so
// far (processor.go:357), which after attempt failed+1 is failed. delay
// is the RetryDelayFunc, given the suite's source.
func asynqDecide(maxRetry int, delay func(*rand.Rand) asynq.RetryDelayFunc) retrytest.DecideFunc {
	return func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		task, err := asynqjobs.NewTask(webhook.Event{ID: "evt-1", URL: "https://hooks.example.com/in"}, asynq.MaxRetry(maxRetry))
		if err != nil {
			panic(err)
		}
		h := &asynqjobs.Handler{Client: &http.Client{Transport: httpscript.FromOutcome(o)}}
		err = h.ProcessTask(context.Background(), task)
		retried := failed
		switch {
		case err == nil:
			return retrytest.Decision{Reason: "delivered"} // no outcome of the suite is a success: the suite says what it expected
		case errors.Is(err, asynq.SkipRetry):
			return retrytest.Decision{Reason: "permanent"}
		case retried >= maxRetry:
			return retrytest.Decision{Reason: "exhausted"}
		}
		return retrytest.Decision{Retry: true, Delay: delay(rng)(retried, err, task), Reason: "backoff"}
	}
}

// The seed's policy, through asynq's RetryDelayFunc, against the whole
// contract of a pure policy.
func TestRetryDelayConforms(t *testing.T) {
	conformance.TestPolicy(t, contract, asynqDecide(asynqjobs.MaxRetry, asynqjobs.RetryDelay))
}
