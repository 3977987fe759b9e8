package llmclient_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
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
	retrytest.AssertStopped(t, h.tr, done.Call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
	if ae, ok := errors.AsType[*llmclient.APIError](r.err); !ok || ae.StatusCode != 429 {
		t.Errorf("returned %v, want it to wrap the last 429 too", r.err)
	}
}

// Running out of MaxAttempts: a provider that keeps answering 429 gets
// MaxAttempts requests (5 by default), and the call returns the last 429,
// with the API's message, as soon as it arrives: no wait after the last
// attempt, and no timer left behind.
func TestRunsOutOfMaxAttemptsWithoutAWaitAfterTheLast(t *testing.T) {
	for _, tc := range []struct {
		maxAttempts int
		want        []time.Duration
	}{
		{1, []time.Duration{0}},
		{3, []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond}},
		{0, []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond, 3500 * time.Millisecond, 7500 * time.Millisecond}}, // the default
	} {
		t.Run(strconv.Itoa(tc.maxAttempts), func(t *testing.T) {
			h := newHarness(t, rateLimited.Always())
			done := h.start(t, llmclient.WithBackoff[string], llmclient.Options{MaxAttempts: tc.maxAttempts})
			h.clk.Step(time.Minute)
			r := returned(t, h, done)
			retrytest.AssertAttemptsAt(t, h.tr, tc.want...)
			if last := tc.want[len(tc.want)-1]; r.at != last {
				t.Errorf("returned at %v, want %v, with the last attempt: no wait after it", r.at, last)
			}
			if ae, ok := errors.AsType[*llmclient.APIError](r.err); !ok || ae.StatusCode != 429 || ae.Message != "Rate limit reached" {
				t.Errorf("returned %v, want the last 429 with its message \"Rate limit reached\"", r.err)
			}
			if p := h.clk.Pending(); len(p) != 0 {
				t.Errorf("%d timers pending after the call returned, want none: %v", len(p), p)
			}
		})
	}
}

// The default ladder at both edges of the random source, long enough to
// stay at the ceiling: the delays of the seed's formula,
// min(8s, 500ms·2^(n-1)) · (0.5 + random/2), are the ceilings at the top and
// half of them at the bottom, 4s at the sixth. (Drawn before the cap, the
// sixth delay would be 8s at the bottom too.)
func TestDefaultLadderAtBothEdgesOfTheJitter(t *testing.T) {
	for _, tc := range []struct {
		src  *seqrand.Source
		want []time.Duration
	}{
		{seqrand.Max(), []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}},
		{seqrand.Min(), []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second}},
	} {
		t.Run(tc.src.String(), func(t *testing.T) {
			h := newHarness(t, rateLimited.Times(6), answer)
			h.start(t, llmclient.WithBackoff[string], llmclient.Options{MaxAttempts: 7, Random: tc.src.Float64})
			h.clk.Step(time.Minute)
			retrytest.AssertDelays(t, h.tr, tc.want...)
		})
	}
}

// "The cap with values that are not powers of two": a ceiling the doubling
// steps over is still the ceiling, clamped on the result, at both edges.
func TestCeilingThatIsNotAPowerOfTwoTimesTheBase(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    llmclient.Options
		want []time.Duration
	}{
		{"500ms to 3s, top", llmclient.Options{Base: 500 * time.Millisecond, MaxDelay: 3 * time.Second, MaxAttempts: 6, Random: seqrand.Max().Float64},
			[]time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}},
		{"500ms to 3s, bottom", llmclient.Options{Base: 500 * time.Millisecond, MaxDelay: 3 * time.Second, MaxAttempts: 6, Random: seqrand.Min().Float64},
			[]time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond, 1500 * time.Millisecond}},
		{"300ms to 1s, top", llmclient.Options{Base: 300 * time.Millisecond, MaxDelay: time.Second, MaxAttempts: 5, Random: seqrand.Max().Float64},
			[]time.Duration{300 * time.Millisecond, 600 * time.Millisecond, time.Second, time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, rateLimited.Times(len(tc.want)), answer)
			h.start(t, llmclient.WithBackoff[string], tc.o)
			h.clk.Step(time.Minute)
			retrytest.AssertDelays(t, h.tr, tc.want...)
		})
	}
}

// The seed's property test: with a seeded random source, every delay of
// 1,000 draws lands in its documented band, [c/2, c) for the ceiling c =
// min(8s, 500ms·2^(n-1)), and the delays grow in expectation: the mean of
// each rung is above the mean of the one before. Run in a synctest bubble
// on the real clock, where the waits take no time.
func TestSeededDelaysStayInTheirBandAndGrow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		band := retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 8 * time.Second, Jitter: retrytest.EqualJitter, OpenTop: true, Attempts: 6}.Windows()
		src := seqrand.Seeded(3)
		sums := make([]time.Duration, len(band))
		const runs = 200 // 5 delays each: 1,000 draws
		for range runs {
			sw := recorder.NewStopwatch()
			var at []time.Time // when each attempt began, on the bubble's clock
			_, _ = llmclient.WithBackoff(t.Context(), func(context.Context) (string, error) {
				sw.Attempt()
				at = append(at, time.Now())
				return "", &llmclient.APIError{StatusCode: 429}
			}, llmclient.Options{MaxAttempts: 6, Random: src.Float64})
			if err := retrytest.CheckDelaysWithin(sw, band...); err != nil {
				t.Fatal(err)
			}
			for i := range sums { // the check passed: 6 attempts, 5 delays
				sums[i] += at[i+1].Sub(at[i])
			}
		}
		for i := 1; i < len(sums); i++ {
			if prev, cur := sums[i-1]/runs, sums[i]/runs; cur <= prev {
				t.Errorf("mean delay before attempt %d = %v, not above the %v before attempt %d", i+2, cur, prev, i+1)
			}
		}
	})
}

// An *APIError that the operation wraps is still retried.
func TestRetriesAWrappedAPIError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw, n := recorder.NewStopwatch(), 0
		out, err := llmclient.WithBackoff(t.Context(), func(context.Context) (string, error) {
			sw.Attempt()
			if n++; n < 3 {
				return "", fmt.Errorf("classifying: %w", &llmclient.APIError{StatusCode: 429})
			}
			return "billing", nil
		}, llmclient.Options{Random: seqrand.Max().Float64})
		g := gomega.NewWithT(t)
		g.Expect(out, err).To(gomega.Equal("billing"))
		g.Expect(sw).To(matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond))
	})
}
