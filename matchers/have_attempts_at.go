package matchers

import (
	"time"

	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// HaveAttemptsAt succeeds if attempt i+1 of actual happened at offset
// want[i] from the start of the schedule, and there were len(want)
// attempts. Starting want at 0 pins that the first attempt is immediate. It
// is [retrytest.CheckAttemptsAt] as a matcher, and reads the same actual
// types as [HaveDelays].
//
//	Expect(rec).To(HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond))
//
// Negative or decreasing offsets make Match return an error.
func HaveAttemptsAt(want ...time.Duration) types.GomegaMatcher {
	want = append([]time.Duration(nil), want...)
	return &scheduleMatcher{
		name:    "HaveAttemptsAt",
		phrase:  "have attempts at the given offsets",
		invalid: schedcheck.ValidateOffsets(want),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.AttemptsAt(s, want) },
	}
}
