package riverjobs_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/seqrand"
)

// The seed's step 5 on River and a real database: a delivery that keeps
// failing with a 503 is rescheduled by River after every attempt at
// exactly the policy's delay — the top of each window at the Max source,
// min(1h, 5s·2^e) for the e-th retry counting from 0, and its bottom, 0s,
// at the Min source — read back from the scheduled_at River wrote; after
// its 13th attempt the job is discarded, and the policy is not asked
// again.
func TestRiverSchedulesEachRetryAtThePolicysDelay(t *testing.T) {
	ceilings := []time.Duration{ // min(1h, 5s·2^e), e = 0 … 11: the seed's 12 retries
		5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second,
		80 * time.Second, 160 * time.Second, 320 * time.Second, 640 * time.Second,
		1280 * time.Second, 2560 * time.Second, time.Hour, time.Hour,
	}
	for _, src := range seqrand.Endpoints() {
		t.Run(src.String(), func(t *testing.T) {
			db := newDB(t)
			policy := &riverjobs.RetryPolicy{Rand: rand.New(src)}
			w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(503).Always()))
			res, err := db.work(w, nil)
			for e, ceiling := range ceilings {
				want := ceiling // the top of [0, ceiling] at Max
				if src.String() == seqrand.Min().String() {
					want = 0
				}
				if se, ok := errors.AsType[*webhook.StatusError](err); !ok || se.StatusCode != 503 {
					t.Fatalf("attempt %d: the worker returned %v, want the 503", e+1, err)
				}
				now := db.clock.Now()
				got := db.row(res.Job.ID)
				state := "retryable"
				if want <= 5*time.Second { // River's scheduler interval: see TestRiverRetryWithinSchedulerIntervalIsAvailable
					state = "available"
				}
				if got != (row{State: state, ScheduledAt: at(now.Add(want)), Attempt: e + 1, Errors: e + 1}) {
					t.Fatalf("after attempt %d failed at %s, River wrote %+v, want %s at %s (+%s), attempt %d, %d errors",
						e+1, at(now), got, state, at(now.Add(want)), want, e+1, e+1)
				}
				res, err = db.workAgain(w, res.Job)
			}
			if got, want := db.row(res.Job.ID), (row{State: "discarded", ScheduledAt: at(res.Job.ScheduledAt), Attempt: 13, Errors: 13}); got != want || res.EventKind != river.EventKindJobFailed {
				t.Errorf("after attempt 13 failed, River wrote %+v (event %s), want %+v: discarded after its last attempt", got, res.EventKind, want)
			}
		})
	}
}
