package withretry_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/seqrand"
)

func TestGivesUpAfterTheConfiguredNumberOfAttempts(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	_, err := withretry.WithRetry(t.Context(), call(rec, errRateLimited), withretry.Options{Attempts: 5}, deps(rec, seqrand.Fixed(0.5)))
	g.Expect(err).To(gomega.MatchError(errRateLimited))
	g.Expect(rec).To(matchers.HaveAttempts(5))   // five attempts, not five retries
	g.Expect(rec.Delays()).To(gomega.HaveLen(4)) // four waits between them
}

// Two runs, one at each end of the random source's range, pin both edges
// of every window.
func TestKeepsEveryDelayInsideItsJitterWindow(t *testing.T) {
	for _, src := range seqrand.Endpoints() {
		gomega.NewWithT(t).Expect(exhaust(withretry.WithRetry, src)).To(matchers.HaveDelaysWithin(windows...), src.String())
	}
}

func TestDoesNotRetryA400(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	_, err := withretry.WithRetry(t.Context(), call(rec, errBadRequest), withretry.Options{}, deps(rec, seqrand.Fixed(0.5)))
	g.Expect(err).To(gomega.MatchError(errBadRequest))
	g.Expect(rec).To(matchers.HaveAttempts(1))
	g.Expect(rec.Delays()).To(gomega.BeEmpty())
}

// With the random source at 0.5, the two waits are half their ceilings.
func TestSucceedsOnALaterAttemptWithoutExtraWaits(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	out, err := withretry.WithRetry(t.Context(), call(rec, errRateLimited, errRateLimited, nil), withretry.Options{}, deps(rec, seqrand.Fixed(0.5)))
	g.Expect(out, err).To(gomega.Equal("ok"))
	g.Expect(rec).To(matchers.HaveDelays(500*time.Millisecond, time.Second))
}

// The seed's defaults: attempts ?? 5 and baseMs ?? 1000. Five attempts,
// four waits at half their ceilings of 1s, 2s, 4s and 8s.
func TestDefaultsAreFiveAttemptsFromOneSecond(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	_, err := withretry.WithRetry(t.Context(), call(rec, errUnavailable), withretry.Options{}, deps(rec, seqrand.Fixed(0.5)))
	g.Expect(err).To(gomega.MatchError(errUnavailable))
	g.Expect(rec).To(matchers.HaveAttempts(5))
	g.Expect(rec).To(matchers.HaveDelays(500*time.Millisecond, time.Second, 2*time.Second, 4*time.Second))
}

// A ladder long enough to reach maxMs: the ceilings 1s, 2s, 4s, 8s, 16s,
// then 30s and 30s, clamped before the jitter is drawn under them, so that
// at the top of the random source no wait reaches 30s and in its middle the
// capped waits are 15s. (A clamp after the jitter gives 16s and 30s there.)
func TestCeilingIsClampedAt30sBeforeTheJitter(t *testing.T) {
	for _, tc := range []struct {
		src  *seqrand.Source
		want []time.Duration
	}{
		{seqrand.Min(), []time.Duration{0, 0, 0, 0, 0, 0, 0}},
		{seqrand.Fixed(0.5), []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 15 * time.Second, 15 * time.Second}},
		{seqrand.Max(), []time.Duration{
			time.Second - time.Nanosecond, 2*time.Second - time.Nanosecond, 4*time.Second - time.Nanosecond, 8*time.Second - time.Nanosecond,
			16*time.Second - time.Nanosecond, 30*time.Second - time.Nanosecond, 30*time.Second - time.Nanosecond,
		}},
	} {
		rec := recorder.New()
		_, _ = withretry.WithRetry(t.Context(), call(rec, errUnavailable), withretry.Options{Attempts: 8}, deps(rec, tc.src))
		gomega.NewWithT(t).Expect(rec).To(matchers.HaveDelays(tc.want...), tc.src.String())
	}
}

// A Base above Max is clamped too: min(30s, 45s·2^i) is 30s from the first
// wait on.
func TestBaseAboveMaxIsClampedToMax(t *testing.T) {
	rec := recorder.New()
	_, _ = withretry.WithRetry(t.Context(), call(rec, errUnavailable), withretry.Options{Base: 45 * time.Second, Attempts: 3}, deps(rec, seqrand.Fixed(0.5)))
	gomega.NewWithT(t).Expect(rec).To(matchers.HaveDelays(15*time.Second, 15*time.Second))
}

// WithRetry retries an error that wraps a *RetryableError, as code that
// annotates its errors returns it.
func TestRetriesAWrappedRetryableError(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	wrapped := fmt.Errorf("charging the card: %w", errUnavailable)
	_, err := withretry.WithRetry(t.Context(), call(rec, wrapped), withretry.Options{Attempts: 3}, deps(rec, seqrand.Fixed(0.5)))
	g.Expect(err).To(gomega.MatchError(wrapped))
	g.Expect(rec).To(matchers.HaveAttempts(3))
}

// A context that ends during a wait ends the retries: WithRetry returns
// the context's error at once, with no further attempt.
func TestContextEndedDuringTheWaitStopsTheRetries(t *testing.T) {
	g, rec := gomega.NewWithT(t), recorder.New()
	ctx, cancel := context.WithCancel(t.Context())
	sleep := func(ctx context.Context, d time.Duration) error {
		cancel() // the caller gives up while the wait is under way
		return rec.SleepContext(ctx, d)
	}
	_, err := withretry.WithRetry(ctx, call(rec, errUnavailable), withretry.Options{}, withretry.Deps{Sleep: sleep, Random: seqrand.Fixed(0.5).Float64})
	g.Expect(err).To(gomega.MatchError(context.Canceled))
	g.Expect(rec).To(matchers.HaveAttempts(1))
}
