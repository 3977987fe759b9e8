package withretry_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/seqrand"
)

// A server's Retry-After replaces the computed delay, whichever form it
// takes; the random source at its top would otherwise wait 999.999999ms.
func TestRetryAfterOverridesTheComputedDelay(t *testing.T) {
	for _, reply := range []httpscript.Reply{
		httpscript.Respond(429).RetryAfter(7 * time.Second),
		httpscript.Respond(429).RetryAfterDate(pinned.Add(7*time.Second), retryafter.IMFFixdate),
	} {
		g, rec := gomega.NewWithT(t), recorder.New()
		c := withretry.Client{
			HTTP: httpscript.NewTransport(t, reply, httpscript.Respond(200)).Client(),
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
	ledger := httpscript.NewLedger()
	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201)).WithLedger(ledger)
	c := withretry.Client{HTTP: tr.Client(), Deps: deps(recorder.New(), seqrand.Min())}
	_, err := c.Post(t.Context(), apiURL, []byte(`{"amount":1000}`))
	g := gomega.NewWithT(t)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(tr).To(matchers.HaveAttempts(2))
	ledger.AssertExactlyOnce(t)
}

// Which responses the Client retries, through real responses: a 429 and a
// 5xx, not a 4xx; a 3xx is no error at all. Both sides of each edge.
func TestClientRetriesOnlyA429OrA5xx(t *testing.T) {
	for _, tc := range []struct {
		status  int
		retried bool
	}{
		{304, false}, {400, false}, {404, false}, {428, false}, {429, true}, {430, false}, {499, false}, {500, true}, {503, true}, {599, true},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			g, rec := gomega.NewWithT(t), recorder.New()
			tr := httpscript.NewTransport(t, httpscript.Respond(tc.status), httpscript.Respond(200))
			c := withretry.Client{HTTP: tr.Client(), Deps: deps(rec, seqrand.Fixed(0.5))}
			_, err := c.Get(t.Context(), apiURL)
			switch {
			case tc.retried:
				g.Expect(err).NotTo(gomega.HaveOccurred())
				g.Expect(tr).To(matchers.HaveAttempts(2))
				g.Expect(rec.Delays()).To(gomega.Equal([]time.Duration{500 * time.Millisecond}))
			case tc.status < 400:
				g.Expect(err).NotTo(gomega.HaveOccurred())
				g.Expect(tr).To(matchers.HaveAttempts(1))
			default:
				g.Expect(err).To(gomega.MatchError(&withretry.StatusError{Status: tc.status}))
				g.Expect(tr).To(matchers.HaveAttempts(1))
				g.Expect(rec.Delays()).To(gomega.BeEmpty())
			}
		})
	}
}

// "Retry-After: 0" is a hint too: the server asks for the retry now, and
// the computed delay, 999.999999ms at the top of the random source, does
// not apply.
func TestRetryAfterZeroRetriesAtOnce(t *testing.T) {
	rec := recorder.New()
	tr := httpscript.NewTransport(t, httpscript.Respond(429).Header("Retry-After", "0"), httpscript.Respond(200))
	c := withretry.Client{HTTP: tr.Client(), Deps: deps(rec, seqrand.Max())}
	_, err := c.Get(t.Context(), apiURL)
	g := gomega.NewWithT(t)
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(rec).To(matchers.HaveDelays(0))
}

// A Retry-After longer than five minutes is cut down to five: both sides
// of the bound, and the day a provider sends during an incident.
func TestRetryAfterIsClampedToFiveMinutes(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{"299", 299 * time.Second},
		{"300", 5 * time.Minute},
		{"301", 5 * time.Minute},
		{"86400", 5 * time.Minute},
	} {
		rec := recorder.New()
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Header("Retry-After", tc.value), httpscript.Respond(200))
		c := withretry.Client{HTTP: tr.Client(), Deps: deps(rec, seqrand.Max())}
		_, err := c.Get(t.Context(), apiURL)
		g := gomega.NewWithT(t)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		g.Expect(rec).To(matchers.HaveDelays(tc.want), "Retry-After: "+tc.value)
	}
}

// A malformed Retry-After is no hint: the computed delay applies
// (999.999999ms at the top of the random source), never a wait of 0.
func TestMalformedRetryAfterFallsBackToTheComputedDelay(t *testing.T) {
	for _, value := range []string{"soon", "-1", "NaN", "1e3", ""} {
		rec := recorder.New()
		tr := httpscript.NewTransport(t, httpscript.Respond(429).Header("Retry-After", value), httpscript.Respond(200))
		c := withretry.Client{HTTP: tr.Client(), Deps: deps(rec, seqrand.Max())}
		_, err := c.Get(t.Context(), apiURL)
		g := gomega.NewWithT(t)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		g.Expect(rec).To(matchers.HaveDelays(time.Second-time.Nanosecond), "Retry-After: %q", value)
	}
}

// A call whose context has already ended sends nothing: the requests carry
// the call's context.
func TestClientSendsNothingOnceItsContextHasEnded(t *testing.T) {
	tr := httpscript.NewTransport(t) // any request is unexpected
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	c := withretry.Client{HTTP: tr.Client(), Deps: deps(recorder.New(), seqrand.Max())}
	_, err := c.Post(ctx, apiURL, []byte(`{"amount":1000}`))
	g := gomega.NewWithT(t)
	g.Expect(err).To(gomega.MatchError(context.Canceled))
	g.Expect(tr).To(matchers.HaveAttempts(0))
}
