package webhook_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The seed's verification, "run the suite against the old policy and
// confirm each production bug is caught": each old implementation fails a
// check that Decide passes. (The jitter-after-cap storm also fails the fleet
// simulation's peak check for deliveries that failed together, which
// TestDeliveriesThatFailedTogetherDoNotReturnTogether passes; the fleet
// Example pins that failure.)
func TestOldBugsAreCaught(t *testing.T) {
	for _, tc := range []struct {
		name  string
		old   webhook.Policy
		check func(t *testing.T, p webhook.Policy) error
	}{
		{"jitter after the cap", webhook.DecideJitterAfterCap, func(_ *testing.T, p webhook.Policy) error {
			return retrytest.CheckSpread(atCap(p), spreadOverTheHour)
		}},
		{"60s cap", webhook.DecideMinuteCap, func(t *testing.T, p webhook.Policy) error {
			return retrytest.CheckCappedAt(schedule(t, p, seqrand.Max()), time.Hour)
		}},
		{"429 without Retry-After retried at once", webhook.DecideNoDelayOn429, func(_ *testing.T, p webhook.Policy) error {
			return retrytest.CheckClassifier(classify(p), classification...)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(t, webhook.Decide); err != nil {
				t.Errorf("Decide fails the check, want it to pass:\n%v", err)
			}
			if err := tc.check(t, tc.old); err == nil {
				t.Error("the old implementation passes the check, want its bug caught")
			}
		})
	}
}
