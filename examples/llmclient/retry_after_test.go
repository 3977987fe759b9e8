package llmclient_test

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// retry-after must win: the server knows something the curve does not.
func TestHonoursRetryAfterInSecondsInsteadOfItsOwnCurve(t *testing.T) {
	h := newHarness(t, rateLimited.RetryAfter(7*time.Second), answer)
	done := h.classify(t, llmclient.Options{})

	h.clk.Step(6999 * time.Millisecond)
	retrytest.AssertAttempts(t, h.tr, 1)
	h.clk.Step(time.Millisecond)
	gomega.NewWithT(t).Expect(returned(t, h, done).out).To(gomega.Equal("billing"))
}

// The date form, read against a system time pinned with Set, 7s before the
// date the server names.
func TestHonoursRetryAfterAsAnHTTPDate(t *testing.T) {
	nine := time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC)
	h := newHarness(t, rateLimited.RetryAfterDate(nine, retryafter.IMFFixdate), answer) // Wed, 12 Aug 2026 09:00:00 GMT
	h.clk.Set(nine.Add(-7 * time.Second))
	done := h.classify(t, llmclient.Options{})

	h.clk.Step(6999 * time.Millisecond)
	retrytest.AssertAttempts(t, h.tr, 1)
	h.clk.Step(time.Millisecond)
	gomega.NewWithT(t).Expect(returned(t, h, done).out).To(gomega.Equal("billing"))
}

// A provider returning "retry-after: 86400" during an incident must not
// make the service hang for a day: the hint is clamped to MaxRetryAfter.
func TestClampsAnAbsurdRetryAfter(t *testing.T) {
	h := newHarness(t, rateLimited.Header("Retry-After", "86400"), answer)
	h.classify(t, llmclient.Options{})
	h.clk.Step(time.Hour)
	retrytest.AssertAttemptsAt(t, h.tr, 0, llmclient.DefaultMaxRetryAfter)
}

// A malformed header falls back to the computed delay, 500ms then 1s,
// rather than to 0: never a hot loop against a server that asked the
// client to stop.
func TestMalformedRetryAfterFallsBackToTheCurve(t *testing.T) {
	for _, value := range []string{"NaN", "soon", "-1", "+Inf", "1e100", ""} {
		t.Run(value, func(t *testing.T) {
			h := newHarness(t, rateLimited.Header("Retry-After", value).Times(2), answer)
			h.classify(t, llmclient.Options{})
			h.clk.Step(time.Minute)
			retrytest.AssertAttemptsAt(t, h.tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
		})
	}
}
