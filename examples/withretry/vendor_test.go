package withretry_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/httpscript"
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
		tr := httpscript.NewTransport(t, httpscript.Respond(429).Times(2), httpscript.Respond(200))
		_, err := withretry.NewVendorClient(tr.Client(), 2).Get(t.Context(), apiURL)
		g := gomega.NewWithT(t)
		g.Expect(err).NotTo(gomega.HaveOccurred())
		g.Expect(tr).To(matchers.HaveDelaysWithin(retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Jitter: retrytest.FactorJitter, JitterFactor: 0.25, Attempts: 3}.Windows()...))
	})
}

// Three attempts of WithRetry around three of the vendor client are nine
// requests at a provider that is already refusing; turning the vendor's
// retries off leaves WithRetry's three. Counting at the transport proves
// which layer retries.
func TestNestedRetriesMultiplyAtTheTransport(t *testing.T) {
	for _, tc := range []struct{ vendorRetries, requests int }{{2, 9}, {0, 3}} {
		synctest.Test(t, func(t *testing.T) {
			tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
			vendor := withretry.NewVendorClient(tr.Client(), tc.vendorRetries)
			_, _ = withretry.WithRetry(t.Context(), viaVendor(vendor), withretry.Options{Attempts: 3}, withretry.Deps{})
			gomega.NewWithT(t).Expect(tr).To(matchers.HaveAttempts(tc.requests))
		})
	}
}

// The vendor client honours a Retry-After of 0 to 60 whole seconds, in
// seconds, and backs off as usual (500ms ± 25%) from 61 on.
func TestVendorClientHonoursRetryAfterUpTo60Seconds(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  retrytest.Window
	}{
		{"0", retrytest.Window{}},
		{"2", retrytest.Window{Min: 2 * time.Second, Max: 2 * time.Second}},
		{"60", retrytest.Window{Min: time.Minute, Max: time.Minute}},
		{"61", retrytest.Window{Min: 375 * time.Millisecond, Max: 625 * time.Millisecond}},
	} {
		t.Run(tc.value, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := httpscript.NewTransport(t, httpscript.Respond(429).Header("Retry-After", tc.value), httpscript.Respond(200))
				_, err := withretry.NewVendorClient(tr.Client(), 2).Get(t.Context(), apiURL)
				g := gomega.NewWithT(t)
				g.Expect(err).NotTo(gomega.HaveOccurred())
				g.Expect(tr).To(matchers.HaveDelaysWithin(tc.want))
			})
		})
	}
}

// The vendor's jitter comes from a global source no test can pin, so its
// window is checked on many draws: 30 calls, each retried once after a
// wait within 500ms ± 25%. A window widened on one side passes one draw
// half the time, and 30 draws once in 2³⁰.
func TestVendorJitterStaysWithin25PercentOverManyDraws(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for range 30 {
			tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(200))
			_, err := withretry.NewVendorClient(tr.Client(), 1).Get(t.Context(), apiURL)
			g := gomega.NewWithT(t)
			g.Expect(err).NotTo(gomega.HaveOccurred())
			g.Expect(tr).To(matchers.HaveDelaysWithin(retrytest.Window{Min: 375 * time.Millisecond, Max: 625 * time.Millisecond}))
		}
	})
}
