package webhook_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// Step 6: simulate a fleet to see aggregate behaviour, in the seed's own
// model: 11,000 deliveries whose first failures are spread over a two-hour
// outage (see seedFleet), every request after recovery succeeding.
//
// What the one-hour cap and the 12 retries promise, asserted here:
//
//   - every delivery still retrying at recovery is back within the hour:
//     no wait is longer than the cap, so the load drains in an hour;
//   - at most a fifth of the deliveries are given up before recovery. The
//     12 retries of a delivery wait half their ceilings on average,
//     (5s·(2¹⁰-1) + 2·1h)/2 = 1h42m37.5s, so the deliveries that first
//     fail in the outage's first 17 minutes, one in seven, mostly run out
//     of retries before the endpoint is back; a fifth leaves room for the
//     jitter. The seed gives no number, but without one the peak below
//     proves nothing: a policy that gives up sooner sends less.
//
// Not asserted: the seed's peak of fewer than 600 requests a minute. In its
// own model this policy sends 710 in the first minute after recovery (659
// to 734 for seeds 7 to 11; the next minutes get 508, 402, 386, …), because
// the ~92 deliveries that fail in each minute of the outage retry every few
// seconds at first, and the first minute after recovery receives the early
// retries of the last minutes before it. So the seed's own assertion fails
// on the seed's own policy, for every seed tried (go run ./examples/fleetsim
// shows the same). The 600 is asserted where it does hold, for deliveries
// that failed together (TestDeliveriesThatFailedTogetherDoNotReturnTogether).
func TestRecoveryLoadIsBounded(t *testing.T) {
	load := simulate(t, seedFleet(webhook.Decide))
	t.Log(load.Summary())
	if load.DrainTime > time.Hour {
		t.Errorf("the last request arrived %v after recovery, want at most 1h (the cap)\n%v", load.DrainTime, load)
	}
	if load.GaveUp > 11000/5 {
		t.Errorf("%d of 11000 deliveries given up before recovery, want at most a fifth (2200)\n%v", load.GaveUp, load)
	}
}

// The incident's storm: 11,000 deliveries that failed together as the
// endpoint went down for two hours. Drawn under the cap, their retries do
// not come back together: at most 600 a minute (jitter after the cap sends
// all 11,000 in one minute; see ExampleDecideJitterAfterCap_fleet).
//
// The low peak, 145, is bought mostly by giving up: the 12 retries of a
// delivery wait 1h42m37.5s on average, less than the outage, so most of
// the deliveries that failed at its start run out of retries before it
// ends: 7,854 of the 11,000 for seed 7. That count is pinned with the peak,
// so the peak is never read without it: a change that gave up on more
// deliveries would lower the peak and must not pass for an improvement.
func TestDeliveriesThatFailedTogetherDoNotReturnTogether(t *testing.T) {
	load := simulate(t, fleet(webhook.Decide))
	policysim.AssertPeakAtMost(t, load, 600)
	if load.GaveUp != 7854 {
		t.Errorf("%d of 11000 deliveries given up before recovery, want 7854 (seed 7)\n%v", load.GaveUp, load)
	}
}
