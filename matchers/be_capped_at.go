package matchers

import (
	"time"

	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// BeCappedAt succeeds if no delay of actual exceeds maxDelay and some delay
// reaches it exactly: the cap is obeyed and in force. It is
// [retrytest.CheckCappedAt] as a matcher, and reads the same actual types as
// [HaveDelays].
//
//	Expect(delays).To(BeCappedAt(8 * time.Second))
//
// Eventually stops early once a Schedule records a delay over the cap. A
// cap <= 0 makes Match return an error.
func BeCappedAt(maxDelay time.Duration) types.GomegaMatcher {
	return &scheduleMatcher{
		name:    "BeCappedAt",
		phrase:  "be capped at " + schedfmt.Duration(maxDelay),
		invalid: schedcheck.ValidateCap(maxDelay),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.CappedAt(s, maxDelay) },
	}
}
