package webhook_test

import (
	"crypto/x509"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
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
	gomega.NewWithT(t).Expect(schedule(t, webhook.Decide, seqrand.Seeded(1)).GaveUp()).
		To(gomega.Equal(policysim.GaveUp{Attempt: 13, Reason: "exhausted"}))
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

// A 429's Retry-After is waited as the endpoint asked, but at least the
// 5s base (the seed's max(error.retry_after, BASE_S): "Retry-After: 0" is
// no reason to retry at once) and at most the project's one hour: both
// sides of both bounds, on the first delivery and on the last retry, whose
// backoff would be drawn under the cap.
func TestRetryAfterIsFlooredAtFiveSecondsAndCappedAtAnHour(t *testing.T) {
	for _, tc := range []struct{ retryAfter, want time.Duration }{
		{0, 5 * time.Second},
		{time.Second, 5 * time.Second},
		{5*time.Second - time.Nanosecond, 5 * time.Second},
		{5 * time.Second, 5 * time.Second},
		{5*time.Second + time.Nanosecond, 5*time.Second + time.Nanosecond},
		{120 * time.Second, 120 * time.Second},
		{time.Hour - time.Nanosecond, time.Hour - time.Nanosecond},
		{time.Hour, time.Hour},
		{time.Hour + time.Nanosecond, time.Hour},
		{24 * time.Hour, time.Hour},
	} {
		for _, attempt := range []int{0, 11} {
			got := webhook.Decide(attempt, rateLimited(tc.retryAfter), rand.New(seqrand.Max()))
			if want := (webhook.Decision{Retry: true, Delay: tc.want, Reason: "retry-after"}); got != want {
				t.Errorf("Decide(%d, 429 with Retry-After %v) = %+v, want %+v", attempt, tc.retryAfter, got, want)
			}
		}
	}
}

// The seed checks for a permanent error before it counts the attempts: a
// 400 is "permanent" after any delivery, the 13th included, where a
// timeout is "exhausted".
func TestPermanentIsDecidedBeforeTheAttemptLimit(t *testing.T) {
	rng := rand.New(seqrand.Fixed(0.5))
	for _, tc := range []struct {
		attempt int
		err     error
		want    webhook.Decision
	}{
		{0, status(400), webhook.Decision{Reason: "permanent"}},
		{11, status(400), webhook.Decision{Reason: "permanent"}},
		{12, status(400), webhook.Decision{Reason: "permanent"}},
		{11, errConnectTimeout, webhook.Decision{Retry: true, Delay: 30 * time.Minute, Reason: "backoff"}},
		{12, errConnectTimeout, webhook.Decision{Reason: "exhausted"}},
	} {
		if got := webhook.Decide(tc.attempt, tc.err, rng); got != tc.want {
			t.Errorf("Decide(%d, %v) = %+v, want %+v", tc.attempt, tc.err, got, tc.want)
		}
	}
}

// Both sides of every edge of "4xx other than 408 and 429", and every kind
// of certificate error: the x509 errors as the TLS stack wraps them and as
// a VerifyConnection hook returns them, bare.
var classificationEdges = []retrytest.ClassifyCase{
	{Err: status(400), Reason: "permanent"},
	{Err: status(407), Reason: "permanent"},
	{Err: status(408), Retry: true, Reason: "backoff"},
	{Err: status(409), Reason: "permanent"},
	{Err: status(428), Reason: "permanent"},
	{Err: status(429), Retry: true, Reason: "backoff", MinDelay: time.Nanosecond},
	{Err: status(431), Reason: "permanent"},
	{Err: status(499), Reason: "permanent"},
	{Err: status(500), Retry: true, Reason: "backoff"},
	{Err: status(599), Retry: true, Reason: "backoff"},
	{Name: "TLS: no system roots", Err: tlsError(x509.SystemRootsError{}), Reason: "permanent"},
	{Name: "TLS: unknown authority", Err: tlsError(x509.UnknownAuthorityError{}), Reason: "permanent"},
	{Name: "bare: unknown authority", Err: bare(x509.UnknownAuthorityError{}), Reason: "permanent"},
	{Name: "bare: certificate expired", Err: bare(x509.CertificateInvalidError{Reason: x509.Expired}), Reason: "permanent"},
	{Name: "bare: certificate for another host", Err: bare(x509.HostnameError{Certificate: &x509.Certificate{}, Host: "hooks.example.com"}), Reason: "permanent"},
}

func TestClassificationAtTheEdges(t *testing.T) {
	retrytest.AssertClassifier(t, classify(webhook.Decide), classificationEdges...)
}
