package llmclient_test

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The seed's first test: start the call, do not wait for it, and advance
// the clock. The pair of assertions at 499ms and 500ms is what makes this a
// test of the delay rather than of some delay.
func TestWaits500msThen1000msAndNotBeforeTheFirstAttempt(t *testing.T) {
	h := newHarness(t, rateLimited.Times(2), answer)
	done := h.start(t, llmclient.WithBackoff[string], llmclient.Options{Base: 500 * time.Millisecond, MaxAttempts: 3})

	h.clk.Step(0)
	retrytest.AssertAttempts(t, h.tr, 1) // no sleep before attempt 1
	h.clk.Step(499 * time.Millisecond)
	retrytest.AssertAttempts(t, h.tr, 1) // still waiting
	h.clk.Step(time.Millisecond)
	retrytest.AssertAttempts(t, h.tr, 2) // fired at exactly 500ms
	h.clk.Step(1000 * time.Millisecond)
	retrytest.AssertAttempts(t, h.tr, 3)

	gomega.NewWithT(t).Expect(returned(t, h, done).out).To(gomega.Equal("billing"))
	retrytest.AssertAttemptsAt(t, h.tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
}

// Pinned at the top of its range, the random source gives the full
// ceilings; at the bottom, half of them: the floor is not zero.
func TestRandomPinnedAtEitherEndGivesExactSequences(t *testing.T) {
	for _, tc := range []struct {
		src  *seqrand.Source
		want []time.Duration
	}{
		{seqrand.Max(), []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}},
		{seqrand.Min(), []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second}},
	} {
		t.Run(tc.src.String(), func(t *testing.T) {
			h := newHarness(t, rateLimited.Times(3), answer)
			h.start(t, llmclient.WithBackoff[string], llmclient.Options{MaxAttempts: 4, Random: tc.src.Float64})
			h.clk.Step(time.Minute)
			gomega.NewWithT(t).Expect(h.tr).To(matchers.HaveDelays(tc.want...))
		})
	}
}

// The ceiling holds: with baseMs 500 and maxDelayMs 8000 the sixth delay
// is 8000, the one that is wrong when the clamp is applied to the exponent.
func TestDelayStopsDoublingAtTheCeiling(t *testing.T) {
	h := newHarness(t, rateLimited.Times(6), answer)
	h.start(t, llmclient.WithBackoff[string], llmclient.Options{Base: 500 * time.Millisecond, MaxDelay: 8 * time.Second, MaxAttempts: 7})
	h.clk.Step(time.Minute)
	retrytest.AssertDelays(t, h.tr, ceilingLadder...)
}

// A total budget of 2s aborts the loop in the middle of its third wait:
// attempts at 0, 500ms and 1.5s, then the 2s wait is cut short at 2s.
func TestTotalDeadlineAbortsMidWait(t *testing.T) {
	h := newHarness(t, rateLimited.Always())
	done := h.start(t, llmclient.WithBackoff[string], llmclient.Options{MaxAttempts: 10, Budget: 2 * time.Second})
	h.clk.Step(time.Minute)
	r := returned(t, h, done)
	retrytest.AssertAbortedAtDeadline(t, h.tr, retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: r.at, Err: r.err})
}
