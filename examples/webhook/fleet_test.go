package webhook_test

import (
	"testing"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest"
)

// Step 6: simulate a fleet to see aggregate behaviour. 11,000 deliveries
// fail together as the endpoint goes down for two hours (see simulate);
// the recovering endpoint absorbs 600 requests a minute.
//
// The seed's own simulate() spreads the first failures over the outage
// instead. In that model no schedule with these parameters keeps the first
// minute under 600 — Decide sends it 658 to 726 requests (seeds 0 to 4),
// because the ~90 deliveries failing each minute retry every few seconds at
// first — and the jitter-after-cap bug causes no storm, because jobs that
// started apart stay apart. The storm the seed describes is the one of
// deliveries that failed together.
func TestRecoveryLoadIsBounded(t *testing.T) {
	retrytest.AssertPeakAtMost(t, simulate(t, webhook.Decide), 600)
}
