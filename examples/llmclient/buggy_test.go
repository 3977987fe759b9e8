package llmclient_test

import (
	"testing"

	"github.com/retrykit/retrykit/examples/llmclient"
)

// Each old implementation fails a scenario that WithBackoff passes.
func TestOldBugsAreCaught(t *testing.T) {
	for _, tc := range []struct {
		name  string
		old   backoffFunc
		check func(fixture, backoffFunc) error
	}{
		{"sleep before the first attempt", llmclient.WithBackoffSleepFirst[string], nothingBeforeTheFirstAttempt},
		{"clamp on the exponent", llmclient.WithBackoffClampedExponent[string], sixthDelayAtTheCeiling},
		{"delay never increments", llmclient.WithBackoffConstantDelay[string], delaysDouble},
		{"NaN from a malformed Retry-After", llmclient.WithBackoffNaNRetryAfter[string], malformedRetryAfterFallsBack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.check(t, llmclient.WithBackoff[string]); err != nil {
				t.Errorf("WithBackoff fails the check, want it to pass:\n%v", err)
			}
			if err := tc.check(t, tc.old); err == nil {
				t.Error("the old implementation passes the check, want its bug caught")
			}
		})
	}
}
