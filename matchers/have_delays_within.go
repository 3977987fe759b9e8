package matchers

import (
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/retrytest"
)

// HaveDelaysWithin succeeds if every wait of actual falls in its window:
// want[i] for the delay before attempt i+2, attempt 1 at once, and
// len(want)+1 attempts in all. Windows include their Max unless Open;
// build them with [retrytest.Policy.Windows]. It is
// [retrytest.CheckDelaysWithin] as a matcher, and reads the same actual
// types as [HaveDelays].
//
//	Expect(rec).To(HaveDelaysWithin(
//		retrytest.Policy{First: time.Second, Growth: 2, Cap: 30*time.Second, Jitter: retrytest.FullJitter, Attempts: 5}.Windows()...))
//	Eventually(rec).Should(HaveDelaysWithin(windows...))
//
// A window whose Min is after its Max makes Match return an error.
func HaveDelaysWithin(want ...retrytest.Window) types.GomegaMatcher {
	ws := make([]schedcheck.Window, len(want))
	for i, w := range want {
		ws[i] = schedcheck.Window(w)
	}
	return &scheduleMatcher{
		name:    "HaveDelaysWithin",
		phrase:  "have delays within the given windows",
		invalid: schedcheck.ValidateWindows(ws),
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.DelaysWithin(s, ws) },
	}
}
