package riverjobs_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/httpscript"
)

// A delivery the endpoint refuses with a 404 will not succeed later: the
// worker returns river.JobCancel, and River cancels the job where it
// stands, without asking the policy and without a new scheduled_at.
// River's test worker returns nil for it, not the error: a test that
// checks only Work's error sees nothing.
func TestRiverCancelsAPermanentFailure(t *testing.T) {
	db := newDB(t)
	policy := &policyFunc{next: func(*rivertype.JobRow) time.Time { return db.clock.Now().Add(time.Minute) }}
	w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(404)))
	res, err := db.work(w, nil)
	if err != nil || res.EventKind != river.EventKindJobCancelled {
		t.Errorf("Work = event %s, error %v; want %s and a nil error (rivertest.Worker hides a JobCancel's error)", res.EventKind, err, river.EventKindJobCancelled)
	}
	if got, want := db.row(res.Job.ID), (row{State: "cancelled", ScheduledAt: at(t0), Attempt: 1, Errors: 1}); got != want {
		t.Errorf("River wrote %+v, want %+v: cancelled, not rescheduled", got, want)
	}
	if len(policy.asked) != 0 {
		t.Errorf("River asked the policy %v, want never for a cancelled job", policy.asked)
	}
}

// A job inserted with one attempt is discarded when it fails, and one
// with two is retried once, then discarded: River stops at the job's
// MaxAttempts without asking the policy, whatever the policy would say.
func TestRiverDiscardsAJobAtItsLastAttempt(t *testing.T) {
	for _, max := range []int{1, 2} {
		t.Run(fmt.Sprintf("MaxAttempts=%d", max), func(t *testing.T) {
			db := newDB(t)
			policy := &policyFunc{next: func(*rivertype.JobRow) time.Time { return db.clock.Now().Add(time.Minute) }}
			w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(503).Always()))
			res, _ := db.work(w, &river.InsertOpts{MaxAttempts: max})
			if max == 2 {
				if got, want := db.row(res.Job.ID), (row{State: "retryable", ScheduledAt: at(t0.Add(time.Minute)), Attempt: 1, Errors: 1}); got != want {
					t.Fatalf("MaxAttempts 2, after attempt 1: River wrote %+v, want %+v", got, want)
				}
				res, _ = db.workAgain(w, res.Job)
			}
			if got, want := db.row(res.Job.ID), (row{State: "discarded", ScheduledAt: at(res.Job.ScheduledAt), Attempt: max, Errors: max}); got != want || res.EventKind != river.EventKindJobFailed {
				t.Errorf("MaxAttempts %d, after attempt %d: River wrote %+v (event %s), want %+v", max, max, got, res.EventKind, want)
			}
			if want := max - 1; len(policy.asked) != want {
				t.Errorf("MaxAttempts %d: River asked the policy %d times (%v), want %d: never after the last attempt", max, len(policy.asked), policy.asked, want)
			}
		})
	}
}
