package matchers

import (
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// HaveAttempts succeeds if actual made want attempts. Attempts count the
// first call: 5 attempts are 4 retries, and the failure message gives both.
// It is [retrytest.CheckAttempts] as a matcher.
//
// Actual is a schedule as for [HaveDelays] (n waits are n+1 attempts).
//
//	Expect(tr).To(HaveAttempts(5))
//	Eventually(rec).Should(HaveAttempts(3))
//
// Eventually stops early once a Schedule has made more than want attempts.
// A negative want makes Match return an error.
func HaveAttempts(want int) types.GomegaMatcher {
	return &scheduleMatcher{
		name:    "HaveAttempts",
		phrase:  "have " + schedfmt.Count(want, "attempt"),
		invalid: schedcheck.ValidateCount(want),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.Attempts(s, want) },
	}
}
