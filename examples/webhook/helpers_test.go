package webhook_test

import (
	"crypto/tls"
	"crypto/x509"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Errors a delivery meets, as the Worker sees them.
var (
	errConnectTimeout = &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	errCertificate    = &url.Error{Op: "Post", URL: event.URL, Err: &tls.CertificateVerificationError{Err: x509.CertificateInvalidError{Reason: x509.Expired}}}
)

func status(code int) error { return &webhook.StatusError{StatusCode: code} }

func rateLimited(retryAfter time.Duration) error {
	return &webhook.StatusError{StatusCode: 429, RetryAfter: retryAfter, HasRetryAfter: true}
}

// event is the webhook the adapter tests deliver.
var event = webhook.Event{ID: "evt-1", URL: "https://hooks.example.com/orders", Payload: []byte(`{"type":"order.paid"}`)}

// ladder is the windows of the intended schedule: 12 retries, each delay
// drawn from [0, min(1h, 5s·2^k)].
var ladder = retrytest.Exponential(webhook.Base, 2, webhook.Cap, webhook.MaxRetries+1, retrytest.WithFullJitter())

// transient is p as a retrytest.Policy for deliveries that keep failing
// with a connect timeout: the policy the runner and the fleet call.
func transient(p webhook.Policy) retrytest.Policy {
	return func(failed int, rng *rand.Rand) retrytest.Decision {
		return retrytest.Decision(p(failed, errConnectTimeout, rng))
	}
}

// schedule is seed 000's schedule(): p's decisions for a delivery that
// always fails with a transient error, drawing from src.
func schedule(t *testing.T, p webhook.Policy, src *seqrand.Source) *retrytest.PolicyRun {
	t.Helper()
	run, err := retrytest.RunPolicyRand(transient(p), rand.New(src))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// atCap draws 2,000 delays for the retry after attempt 10, past the cap,
// from one seeded source.
func atCap(p webhook.Policy) []time.Duration {
	rng := rand.New(seqrand.Seeded(42))
	ds := make([]time.Duration, 2000)
	for i := range ds {
		ds[i] = p(10, errConnectTimeout, rng).Delay
	}
	return ds
}

// spreadOverTheHour is the seed's spread property: over [0, 1h] in
// 5-minute buckets, no bucket holds twice the mean or more.
var spreadOverTheHour = retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}

// simulate is seed 000's simulate(): 11,000 deliveries that fail together
// when the endpoint goes down for two hours, each retried by p; the load is
// what the endpoint receives per minute after it recovers.
func simulate(t *testing.T, p webhook.Policy) *retrytest.FleetLoad {
	t.Helper()
	load, err := fleet(p).Simulate()
	if err != nil {
		t.Fatal(err)
	}
	return load
}

func fleet(p webhook.Policy) retrytest.Fleet {
	return retrytest.Fleet{Jobs: 11000, AllAtOnce: true, Outage: 2 * time.Hour, Policy: transient(p), Seed: 7}
}
