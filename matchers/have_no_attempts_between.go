package matchers

import (
	"time"

	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// HaveNoAttemptsBetween succeeds if no attempt of actual began at an
// offset in [from, to): an open circuit breaker's silence, counted at the
// transport. It is [retrytest.CheckNoAttemptsBetween] as a matcher, and
// reads the same actual types as [HaveDelays].
//
//	Expect(tr).To(HaveNoAttemptsBetween(5*time.Second+1, 65*time.Second))
//
// Eventually stops early once an attempt is in the span. A span that
// holds no instant makes Match return an error.
func HaveNoAttemptsBetween(from, to time.Duration) types.GomegaMatcher {
	return &scheduleMatcher{
		name:    "HaveNoAttemptsBetween",
		phrase:  "have no attempt in " + schedfmt.HalfOpen(from, to),
		invalid: schedcheck.ValidateBetween(from, to),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.NoAttemptsBetween(s, from, to) },
	}
}
