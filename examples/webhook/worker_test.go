package webhook_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Step 5: drive the real adapter with a fake clock. The 4th delivery fails
// with a 503 and the retry is scheduled at 0.5 × min(1h, 5s·2³) = 20s.
func TestAdapterSchedulesRetryAtPolicyDelay(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(200)).WithClock(clk)
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5))}
	_ = w.Deliver(t.Context(), event, 3) // the 4th delivery
	clk.Step(20 * time.Second)
	retrytest.AssertAttemptsAt(t, tr, 0, 20*time.Second)
}

// "Test the adapter's translation once": a delivery that keeps failing is
// made 13 times, the retries scheduled at half their ceilings (the jitter
// pinned in the middle), and then given up, once, through Done, with the
// last delivery's error. (The loop limit stops a Worker that never gives
// up after 20 retries, where 10,000 would take the test's whole timeout.)
func TestWorkerGivesUpAfterTwelveRetries(t *testing.T) {
	clk := fakeclock.New(t, fakeclock.WithLoopLimit(20))
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(13)).WithClock(clk)
	var got outcomes
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5)), Done: got.done}
	_ = w.Deliver(t.Context(), event, 0)
	clk.Step(3 * time.Hour)
	retrytest.AssertDelays(t, tr,
		2500*time.Millisecond, 5*time.Second, 10*time.Second, 20*time.Second, 40*time.Second, 80*time.Second,
		160*time.Second, 320*time.Second, 640*time.Second, 1280*time.Second, 30*time.Minute, 30*time.Minute)
	got.assertOne(t, hasStatus(503), "the 503")
	assertNothingPending(t, clk)
}

// A permanent failure is given up at once, and Done hears of it.
func TestWorkerGivesUpAPermanentFailure(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(410)).WithClock(clk)
	var got outcomes
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5)), Done: got.done}
	if err := w.Deliver(t.Context(), event, 0); err == nil || err.Error() != "410 Gone" {
		t.Errorf("Deliver = %v, want 410 Gone", err)
	}
	clk.Step(time.Hour)
	retrytest.AssertAttempts(t, tr, 1)
	got.assertOne(t, hasStatus(410), "the 410")
	assertNothingPending(t, clk)
}

// The package doc's promise: every delivery of an event carries its ID as
// the Idempotency-Key, so an endpoint that processed a delivery whose
// response was lost drops the retry. The ledger stands for such an
// endpoint: the event is applied once although it was delivered three
// times.
func TestWorkerSendsTheEventIDAsIdempotencyKeyOnEveryDelivery(t *testing.T) {
	clk := fakeclock.New(t)
	ledger := httpscript.NewLedger()
	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(500), httpscript.Respond(200)).WithClock(clk).WithLedger(ledger)
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5))}
	_ = w.Deliver(t.Context(), event, 0)
	clk.Step(time.Minute)
	retrytest.AssertAttempts(t, tr, 3)
	ledger.AssertExactlyOnce(t)
	for _, r := range tr.Requests() {
		if got := r.Header.Get("Idempotency-Key"); got != "evt-1" {
			t.Errorf("delivery %d: Idempotency-Key %q, want the event's ID \"evt-1\"", r.Attempt, got)
		}
	}
}

// "Once ctx is done, a failed delivery is given up instead of retried": the
// context ends while the retry waits; when its timer fires the retry sends
// nothing (the transport would fail the test on a second request), and the
// event is given up with the context's error. No timer is left behind.
func TestWorkerGivesUpOnceItsContextIsDone(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(503)).WithClock(clk)
	var got outcomes
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Fixed(0.5)), Done: got.done}
	ctx, cancel := context.WithCancel(t.Context())
	_ = w.Deliver(ctx, event, 0) // the retry is due at 2.5s
	clk.Step(time.Second)
	cancel()
	clk.Step(time.Hour)
	retrytest.AssertAttempts(t, tr, 1)
	got.assertOne(t, func(err error) bool { return errors.Is(err, context.Canceled) }, "context.Canceled")
	assertNothingPending(t, clk)
}

// A Retry-After date is read against the Worker's Clock, the instant the
// response arrived on it: two minutes after the fake clock's now is a
// two-minute wait, although that date is decades before the wall clock's.
func TestWorkerReadsARetryAfterDateOnItsClock(t *testing.T) {
	clk := fakeclock.New(t)
	limited := httpscript.Respond(429).RetryAfterDate(clk.Now().Add(2*time.Minute), retryafter.IMFFixdate)
	tr := httpscript.NewTransport(t, limited, httpscript.Respond(200)).WithClock(clk)
	w := &webhook.Worker{Client: tr.Client(), Clock: clk, Rand: rand.New(seqrand.Max())}
	_ = w.Deliver(t.Context(), event, 0)
	clk.Step(time.Hour)
	retrytest.AssertAttemptsAt(t, tr, 0, 2*time.Minute)
}
