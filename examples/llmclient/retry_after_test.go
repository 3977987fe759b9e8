package llmclient_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/httpscript"
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
// make the service hang for a day: the hint is clamped to MaxRetryAfter,
// 60s by default. Both sides of the bound, and a MaxRetryAfter of its own.
func TestClampsAnAbsurdRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		value         string
		maxRetryAfter time.Duration
		want          time.Duration
	}{
		{"86400", 0, 60 * time.Second},
		{"59", 0, 59 * time.Second},
		{"60", 0, 60 * time.Second},
		{"61", 0, 60 * time.Second},
		{"9", 10 * time.Second, 9 * time.Second},
		{"30", 10 * time.Second, 10 * time.Second},
	} {
		t.Run(fmt.Sprintf("%s under %v", tc.value, tc.maxRetryAfter), func(t *testing.T) {
			h := newHarness(t, rateLimited.Header("Retry-After", tc.value), answer)
			h.classify(t, llmclient.Options{MaxRetryAfter: tc.maxRetryAfter})
			h.clk.Step(time.Hour)
			retrytest.AssertAttemptsAt(t, h.tr, 0, tc.want)
		})
	}
}

// The hints are read from a 429 or a 503, the statuses that carry one by
// RFC 9110; a 500's Retry-After is ignored and the curve applies (500ms
// with the random source at its top).
func TestRetryAfterIsReadFromA429OrA503Only(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   time.Duration
	}{
		{429, 7 * time.Second},
		{503, 7 * time.Second},
		{500, 500 * time.Millisecond},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			h := newHarness(t, httpscript.Respond(tc.status).RetryAfter(7*time.Second), answer)
			h.classify(t, llmclient.Options{})
			h.clk.Step(time.Minute)
			retrytest.AssertAttemptsAt(t, h.tr, 0, tc.want)
		})
	}
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
