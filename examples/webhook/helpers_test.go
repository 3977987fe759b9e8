package webhook_test

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
	"github.com/retrykit/retrykit/seqrand"
)

// Errors a delivery meets, as the Worker sees them.
var (
	errConnectTimeout = &net.OpError{Op: "dial", Net: "tcp", Err: os.ErrDeadlineExceeded}
	errCertificate    = tlsError(x509.CertificateInvalidError{Reason: x509.Expired})
)

func status(code int) error { return &webhook.StatusError{StatusCode: code} }

func rateLimited(retryAfter time.Duration) error {
	return &webhook.StatusError{StatusCode: 429, RetryAfter: retryAfter, HasRetryAfter: true}
}

// event is the webhook the adapter tests deliver.
var event = webhook.Event{ID: "evt-1", URL: "https://hooks.example.com/orders", Payload: []byte(`{"type":"order.paid"}`)}

// ladder is the windows of the intended schedule, from the seed's numbers
// (BASE_S 5, CAP_S 3600, 12 retries): 13 deliveries, the delay before
// delivery k+2 drawn from [0, min(1h, 5s·2^k)].
var ladder = retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}.Windows()

// transient is p as a pure decision for deliveries that keep failing
// with a connect timeout: the policy the runner and the fleet call.
func transient(p webhook.Policy) func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	return func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		return retrytest.Decision(p(failed, errConnectTimeout, rng))
	}
}

// schedule is seed 000's schedule(): p's decisions for a delivery that
// always fails with a transient error, drawing from src.
func schedule(t *testing.T, p webhook.Policy, src *seqrand.Source) *policysim.Job {
	t.Helper()
	run, err := policysim.RunRand(transient(p), rand.New(src))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// atCap draws 2,000 delays for the retry after attempt 10, past the cap,
// from one seeded source.
func atCap(p webhook.Policy) retrytest.Schedule {
	rng := rand.New(seqrand.Seeded(42))
	ds := make([]time.Duration, 2000)
	for i := range ds {
		ds[i] = p(10, errConnectTimeout, rng).Delay
	}
	return retrytest.Waits(ds...)
}

// spreadOverTheHour is the seed's spread property: over [0, 1h] in
// 5-minute buckets, no bucket holds twice the mean or more.
var spreadOverTheHour = retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}

// simulate runs f and returns the load the endpoint receives per minute
// after it recovers.
func simulate(t *testing.T, f policysim.Fleet) *policysim.Load {
	t.Helper()
	load, err := f.Simulate()
	if err != nil {
		t.Fatal(err)
	}
	return load
}

// seedFleet is seed 000's simulate(): 11,000 deliveries whose first
// failures are spread uniformly over a two-hour outage (t =
// rng.uniform(0, outage_s)), each retried by p, seed 7.
func seedFleet(p webhook.Policy) policysim.Fleet {
	return policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: transient(p), Seed: 7}
}

// fleet is seedFleet with every delivery failing at once, as the endpoint
// goes down: the storm of deliveries that fail together.
func fleet(p webhook.Policy) policysim.Fleet {
	f := seedFleet(p)
	f.AllAtOnce = true
	return f
}

// tlsError is err as the TLS stack reports a failed verification: wrapped
// in a *tls.CertificateVerificationError, then in the client's *url.Error.
func tlsError(err error) error {
	return bare(&tls.CertificateVerificationError{Err: err})
}

// bare is err as the client returns it: in a *url.Error, as a
// VerifyConnection hook's error arrives, without the TLS wrapper.
func bare(err error) error {
	return &url.Error{Op: "Post", URL: event.URL, Err: err}
}

// outcomes records what a Worker's Done reports, from whichever goroutine
// calls it.
type outcomes struct {
	mu   sync.Mutex
	errs []error
}

func (o *outcomes) done(ev webhook.Event, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ev.ID != event.ID {
		err = fmt.Errorf("Done called for event %q, want %q (error: %w)", ev.ID, event.ID, err)
	}
	o.errs = append(o.errs, err)
}

// assertOne checks that Done was called exactly once, with an error that
// ok accepts; want describes it.
func (o *outcomes) assertOne(t *testing.T, ok func(error) bool, want string) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.errs) != 1 || !ok(o.errs[0]) {
		t.Errorf("Done got %d calls with errors %v, want one call with %s", len(o.errs), o.errs, want)
	}
}

// hasStatus accepts an error that is a *webhook.StatusError with code.
func hasStatus(code int) func(error) bool {
	return func(err error) bool {
		se, ok := errors.AsType[*webhook.StatusError](err)
		return ok && se.StatusCode == code
	}
}

// assertNothingPending checks that no timer is left on clk: no retry is
// scheduled.
func assertNothingPending(t *testing.T, clk *fakeclock.Clock) {
	t.Helper()
	if p := clk.Pending(); len(p) != 0 {
		t.Errorf("%d timers still pending, want none: %v", len(p), p)
	}
}
