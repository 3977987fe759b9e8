package withretry_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
)

// When you cannot inject the clock: the vendor client waits on the time
// package, which is fake inside a synctest bubble, so the call returns at
// once. Its jitter comes from a global source no test can pin, so its
// delays — timed by the transport on the bubble's clock — are checked
// against their windows: 500ms and 1s, each ±25%.
func TestVendorClientRetriesWithoutRealWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := retrytest.NewTransport(t, retrytest.Respond(429).Times(2), retrytest.Respond(200))
		_, err := withretry.NewVendorClient(tr.Client(), 2).Get(t.Context(), apiURL)
		g := gomega.NewWithT(t)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		g.Expect(tr).To(matchers.HaveDelaysWithin(retrytest.Exponential(500*time.Millisecond, 2, 0, 3, retrytest.WithRandomizationFactor(0.25))...))
	})
}

// Three attempts of WithRetry around three of the vendor client are nine
// requests at a provider that is already refusing; turning the vendor's
// retries off leaves WithRetry's three. Counting at the transport proves
// which layer retries.
func TestNestedRetriesMultiplyAtTheTransport(t *testing.T) {
	for _, tc := range []struct{ vendorRetries, requests int }{{2, 9}, {0, 3}} {
		synctest.Test(t, func(t *testing.T) {
			tr := retrytest.NewTransport(t, retrytest.Respond(503).Always())
			vendor := withretry.NewVendorClient(tr.Client(), tc.vendorRetries)
			_, _ = withretry.WithRetry(t.Context(), viaVendor(vendor), withretry.Options{Attempts: 3}, withretry.Deps{})
			gomega.NewWithT(t).Expect(tr).To(matchers.HaveAttempts(tc.requests))
		})
	}
}
