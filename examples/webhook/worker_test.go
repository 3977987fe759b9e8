package webhook_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Step 5: drive the real adapter with a fake clock. The 4th delivery fails
// with a 503 and the retry is scheduled at 0.5 × min(1h, 5s·2³) = 20s.
func TestAdapterSchedulesRetryAtPolicyDelay(t *testing.T) {
	clk := fakeclock.New(t)
	tr := retrytest.NewTransport(t, retrytest.Respond(503), retrytest.Respond(200)).WithClock(clk)
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5))}
	_ = w.Deliver(t.Context(), event, 3) // the 4th delivery
	clk.Step(20 * time.Second)
	retrytest.AssertAttemptsAt(t, tr, 0, 20*time.Second)
}
