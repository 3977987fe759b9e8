package withretry_test

import (
	"testing"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Each old implementation fails a check that WithRetry passes.
func TestOldBugsAreCaught(t *testing.T) {
	for _, tc := range []struct {
		name  string
		old   retryFunc
		check func(retry retryFunc) error
	}{
		{"exponent from the retry count", withretry.WithRetryExponentFromRetryCount[string], func(retry retryFunc) error {
			return retrytest.CheckDelaysWithin(exhaust(retry, seqrand.Max()), windows...)
		}},
		{"five retries instead of five attempts", withretry.WithRetryCountingRetries[string], func(retry retryFunc) error {
			return retrytest.CheckAttempts(exhaust(retry, seqrand.Fixed(0.5)), 5)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(withretry.WithRetry[string]); err != nil {
				t.Errorf("WithRetry fails the check, want it to pass:\n%v", err)
			}
			if err := tc.check(tc.old); err == nil {
				t.Error("the old implementation passes the check, want its bug caught")
			}
		})
	}
}

// The bottom of the windows cannot tell the shifted exponent: only the
// top endpoint catches it. That is why both are pinned.
func TestShiftedExponentPassesAtTheBottomEdge(t *testing.T) {
	retrytest.AssertDelaysWithin(t, exhaust(withretry.WithRetryExponentFromRetryCount[string], seqrand.Min()), windows...)
}
