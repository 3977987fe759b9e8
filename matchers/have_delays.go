package matchers

import (
	"time"

	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// HaveDelays succeeds if actual waited exactly want between its attempts:
// want[i] before attempt i+2, len(want)+1 attempts in all, attempt 1 at
// once. It is [retrytest.CheckDelays] as a matcher.
//
// Actual is a [retrytest.Schedule] (the recorder, the scripted transport, a
// stopwatch, the fake clock) or a []time.Duration of waits between
// attempts. A wait recorded after the last attempt, even a zero one, fails
// it.
//
//	Expect(rec).To(HaveDelays(500*time.Millisecond, time.Second, 2*time.Second))
//	Eventually(rec).Should(HaveDelays(500*time.Millisecond, time.Second))
//
// Eventually stops early once a recorded delay is wrong or an attempt is
// extra: recording more cannot fix that.
func HaveDelays(want ...time.Duration) types.GomegaMatcher {
	want = append([]time.Duration(nil), want...)
	return &scheduleMatcher{
		name:    "HaveDelays",
		phrase:  "have exactly the given delays",
		invalid: schedcheck.ValidateDelays(want),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.Delays(s, want) },
	}
}
