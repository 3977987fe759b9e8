package webhook_test

import (
	"crypto/x509"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// contract is what the package doc promises of Decide, in the suite's
// terms: 5s doubling to an hour, full jitter under the cap, 13 deliveries;
// a 429's Retry-After waited, held to [5s, 1h]; 4xx permanent but 408 and
// 429; an untrusted certificate permanent.
var contract = conformance.Spec{
	Policy:       retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
	Hints:        &conformance.Hints{Statuses: []int{429}, Min: 5 * time.Second, Max: time.Hour},
	Retryable:    []int{408, 429, 500, 501, 502, 503, 504},
	Permanent:    []int{400, 401, 403, 404, 410, 422},
	PermanentErr: x509.UnknownAuthorityError{},
}

// decide adapts a webhook policy to the suite: an Outcome becomes the
// error the worker hands the policy, read as the worker reads a response.
func decide(p webhook.Policy) retrytest.DecideFunc {
	return func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		err := o.Err
		if o.Status != 0 {
			err = webhook.ResponseError(o.Response(), o.Now)
		}
		return retrytest.Decision(p(failed, err, rng))
	}
}

// The whole contract of a pure policy, in one call.
func TestDecideConforms(t *testing.T) {
	conformance.TestPolicy(t, contract, decide(webhook.Decide))
}

// Each of the incident's bugs fails the properties that name it, and no
// other.
func TestIncidentBugsFailConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    webhook.Policy
		want []string
	}{
		// min(Cap, Base·2^n + jitter): from retry 11 on every delay is
		// exactly the hour.
		{"jitter after the cap", webhook.DecideJitterAfterCap, []string{"WaitsInWindows", "JitterFromSource", "NoSpikeAtCap"}},
		// Capped at a minute: the hour is never reached, and a 429 asking
		// for ten minutes is cut to one.
		{"a minute cap", webhook.DecideMinuteCap, []string{"JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterClamped", "RetryAfterAbsurd"}},
		// A 429 without a usable Retry-After retried at once, and a
		// "Retry-After: 0" too: the old code had no 5s floor.
		{"no delay on 429", webhook.DecideNoDelayOn429, []string{"RetryableStatuses", "RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := conformance.CheckPolicy(contract, decide(tc.p))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Failed(); !slices.Equal(got, tc.want) {
				t.Errorf("failed %v, want %v\n%s", got, tc.want, r)
			}
		})
	}
}
