package matchers

import (
	"time"

	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// HaveTotalDelay succeeds if the delays of actual add up to exactly want.
// It is [retrytest.CheckTotalDelay] as a matcher, and reads the same actual
// types as [HaveDelays].
//
//	Expect(rec).To(HaveTotalDelay(3500 * time.Millisecond))
//
// Eventually stops early once a Schedule's total is over want. A negative
// want makes Match return an error.
func HaveTotalDelay(want time.Duration) types.GomegaMatcher {
	return &scheduleMatcher{
		name:    "HaveTotalDelay",
		phrase:  "have a total delay of " + schedfmt.Duration(want),
		invalid: schedcheck.ValidateTotal(want),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.TotalDelay(s, want) },
	}
}
