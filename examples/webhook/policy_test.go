package webhook_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Step 2: assert the whole schedule, not one delay. Every delay of every
// seed's schedule lies in its window, and there are exactly 12 of them.
func TestEveryDelayIsWithinItsCeiling(t *testing.T) {
	for seed := range uint64(50) {
		retrytest.AssertDelaysWithin(t, schedule(t, webhook.Decide, seqrand.Seeded(seed)), ladder...)
	}
}

// At the top of every window the delays are the ceilings themselves: they
// double from 5s and reach the one-hour cap (10,240s uncapped).
func TestCeilingGrowsThenCapsAtOneHour(t *testing.T) {
	retrytest.AssertCappedAt(t, schedule(t, webhook.Decide, seqrand.Max()), time.Hour)
}

// The first delivery and 12 retries, then the policy gives up.
func TestStopsAfterMaxRetries(t *testing.T) {
	gomega.NewWithT(t).Expect(schedule(t, webhook.Decide, seqrand.Seeded(1)).Stop()).
		To(gomega.Equal(retrytest.PolicyStop{Attempt: webhook.MaxRetries + 1, Reason: "exhausted"}))
}

// Step 3: test the jitter distribution, not just its presence. 2,000
// delays at the cap cover the hour evenly.
func TestCappedDelaysAreSpreadNotSynchronised(t *testing.T) {
	retrytest.AssertSpread(t, atCap(webhook.Decide), spreadOverTheHour)
}

// Step 4: classify errors with a table. The 429 without Retry-After backs
// off like any transient error; it is never retried at once.
var classification = []retrytest.ClassifyCase{
	{Err: status(500), Retry: true, Reason: "backoff"},
	{Err: status(502), Retry: true, Reason: "backoff"},
	{Err: status(503), Retry: true, Reason: "backoff"},
	{Err: status(408), Retry: true, Reason: "backoff"}, // request timeout: transient
	{Err: rateLimited(120 * time.Second), Retry: true, Reason: "retry-after", MinDelay: 120 * time.Second},
	{Err: status(429), Retry: true, Reason: "backoff", MinDelay: time.Nanosecond}, // no header: back off, never 0
	{Err: status(400), Reason: "permanent"},
	{Err: status(404), Reason: "permanent"},
	{Err: status(410), Reason: "permanent"},
	{Err: errConnectTimeout, Retry: true, Reason: "backoff"},
	{Name: "TLS: certificate expired", Err: errCertificate, Reason: "permanent"}, // won't fix itself in an hour
}

// classify is p deciding about the first delivery, as a classifier, with
// the jitter pinned in the middle of its window.
func classify(p webhook.Policy) func(error) retrytest.Decision {
	return func(err error) retrytest.Decision { return retrytest.Decision(p(0, err, rand.New(seqrand.Fixed(0.5)))) }
}

func TestClassification(t *testing.T) {
	retrytest.AssertClassifier(t, classify(webhook.Decide), classification...)
}
