package asynqjobs_test

import (
	"crypto/x509"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// asynqDefault is asynq's default retry policy as the contract states it
// (asynq@v0.26.0 server.go:401-405, "taken from Sidekiq"): before retry
// k, with n = k-1 retries so far, the task waits n⁴ + 15 seconds plus
// rand.IntN(30)·(n+1) — a step jitter of up to 29 seconds times the
// retry, both ends reached — and asynq's default MaxRetry, 25
// (client.go:307), makes 26 attempts. No cap: the 25th retry waits about
// 3.8 days. The draws come from math/rand/v2's global source, which no
// seam reaches, so the contract says OwnRandom and the suite reads a
// sample of its waits. The handler is the adapter's, so the outcomes it
// classifies are the seed's.
var asynqDefault = conformance.Spec{
	Policy:       retrytest.Policy{Ceilings: asynqCeilings(0), Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second, Attempts: 26},
	OwnRandom:    true,
	Retryable:    []int{408, 429, 500, 501, 502, 503, 504},
	Permanent:    []int{400, 401, 403, 404, 410, 422},
	PermanentErr: x509.UnknownAuthorityError{},
}

// asynqCeilings are the bottoms of asynq's 25 windows, n⁴ + 15 seconds
// for n = 0…24, with n shifted by shift: 1 is the exponent off by one.
func asynqCeilings(shift int) []time.Duration {
	c := make([]time.Duration, 25)
	for k := 1; k <= 25; k++ {
		n := k - 1 + shift
		c[k-1] = time.Duration(n*n*n*n+15) * time.Second
	}
	return c
}

// defaultDelay is asynq's own default RetryDelayFunc; it draws from its
// own source, so the suite's is not used.
func defaultDelay(*rand.Rand) asynq.RetryDelayFunc { return asynq.DefaultRetryDelayFunc }

// asynq's default policy, through its own DefaultRetryDelayFunc, against
// the whole contract of a pure policy: every wait of a sample within its
// window and reaching every quarter of it, the attempts, the statuses.
func TestAsynqDefaultPolicyConforms(t *testing.T) {
	conformance.TestPolicy(t, asynqDefault, asynqDecide(25, defaultDelay))
}

// The contract above is asynq's and not a looser one: each contract one
// mistake away from it fails against asynq's default, on the property
// that judges the mistake.
func TestAsynqDefaultConformanceIsExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*conformance.Spec)
		want string
	}{
		{"the exponent off by one", func(s *conformance.Spec) { s.Policy.Ceilings = asynqCeilings(1) }, "WaitsInWindows"},
		{"a wider step", func(s *conformance.Spec) { s.Policy.JitterAmount = 40 * time.Second }, "WaitsInWindows"},
		{"a narrower step", func(s *conformance.Spec) { s.Policy.JitterAmount = 28 * time.Second }, "WaitsInWindows"},
		{"MaxRetry 24", func(s *conformance.Spec) { s.Policy.Attempts = 25 }, "AttemptCount"},
		{"MaxRetry 26", func(s *conformance.Spec) { s.Policy.Attempts = 27 }, "AttemptCount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := asynqDefault
			spec.Policy.Ceilings = slices.Clone(spec.Policy.Ceilings)
			tc.edit(&spec)
			rep, err := conformance.CheckPolicy(spec, asynqDecide(25, defaultDelay))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Failed(); !slices.Contains(got, tc.want) {
				t.Errorf("asynq's default against the contract with %s: failed %q, want %s among them\n%s", tc.name, got, tc.want, rep)
			}
		})
	}
}
