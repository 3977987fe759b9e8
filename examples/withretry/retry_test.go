package withretry_test

import (
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
