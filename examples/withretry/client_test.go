package withretry_test

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// A server's Retry-After replaces the computed delay, whichever form it
// takes; the random source at its top would otherwise wait 999.999999ms.
func TestRetryAfterOverridesTheComputedDelay(t *testing.T) {
	for _, reply := range []retrytest.Reply{
		retrytest.Respond(429).RetryAfter(7 * time.Second),
		retrytest.Respond(429).RetryAfterDate(pinned.Add(7*time.Second), retryafter.IMFFixdate),
	} {
		g, rec := gomega.NewWithT(t), recorder.New()
		c := withretry.Client{
			HTTP: retrytest.NewTransport(t, reply, retrytest.Respond(200)).Client(),
			Deps: withretry.Deps{Sleep: rec.SleepContext, Random: seqrand.Max().Float64, Now: func() time.Time { return pinned }},
		}
		_, err := c.Get(t.Context(), apiURL)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		g.Expect(rec).To(matchers.HaveDelays(7*time.Second), reply.String())
	}
}

// "If the call charged a card, the second attempt does it twice": the
// ledger applies the charge once per idempotency key, and the client
// sends the same key with every attempt.
func TestRetriedChargeIsAppliedOnce(t *testing.T) {
	ledger := retrytest.NewLedger()
	tr := retrytest.NewTransport(t, retrytest.Respond(503), retrytest.Respond(201)).WithLedger(ledger)
	c := withretry.Client{HTTP: tr.Client(), Deps: deps(recorder.New(), seqrand.Min())}
	_, err := c.Post(t.Context(), apiURL, []byte(`{"amount":1000}`))
	g := gomega.NewWithT(t)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(tr).To(matchers.HaveAttempts(2))
	retrytest.AssertExactlyOnce(t, ledger)
}
