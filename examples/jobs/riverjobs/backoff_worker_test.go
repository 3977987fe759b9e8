package riverjobs_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertest"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/seqrand"
)

// A worker whose NextRetry returns an instant, against the seed's whole
// contract: the worker classifies each outcome of the suite, River's rules
// cancel or discard, and NextRetry schedules the rest. RunInBubble runs
// each decision in a testing/synctest bubble, where time.Now stands still
// while NextRetry reads it, so the delay is exact at both edges of the
// random source.
func TestBackoffWorkerConforms(t *testing.T) {
	conformance.TestPolicy(t, contract, func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		w := &riverjobs.BackoffWorker{Rand: rng}
		w.Client = &http.Client{Transport: httpscript.FromOutcome(o)}
		job := &river.Job[riverjobs.DeliverArgs]{
			JobRow: &rivertype.JobRow{Attempt: failed + 1, Errors: make([]rivertype.AttemptError, failed)},
			Args:   riverjobs.DeliverArgs{ID: "evt-1", URL: "https://hooks.example.com/in"},
		}
		err := w.Work(context.Background(), job)
		var cancel *rivertype.JobCancelError
		switch {
		case err == nil:
			return retrytest.Decision{Reason: "delivered"}
		case errors.As(err, &cancel):
			return retrytest.Decision{Reason: "permanent"} // River cancels the job
		case job.Attempt >= riverjobs.MaxAttempts:
			return retrytest.Decision{Reason: "exhausted"} // River discards it without asking
		}
		now := time.Now() // the bubble's
		return retrytest.Decision{Retry: true, Delay: w.NextRetry(job).Sub(now), Reason: "backoff"}
	}, conformance.RunInBubble())
}

// River's time stub does not reach a worker's NextRetry, which reads the
// wall clock: with the stub a day behind it, River writes the retry at the
// wall clock's now plus the delay, not the stub's; with the stub a day
// ahead, the worker's instant is before River's now, and River silently
// replaces it with its default policy's, about a second after the stub
// (TestRiverNextRetryBeforeNowFallsBackToTheDefault). A client policy
// rescues neither: River asks the worker first.
func TestRiverTimeStubDoesNotReachAWorkersNextRetry(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stub  time.Duration // the stub's offset from the wall clock
		state string
	}{
		{"stub behind the wall clock", -24 * time.Hour, "retryable"},
		{"stub ahead of the wall clock", 24 * time.Hour, "available"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := newDB(t)
			stub := time.Now().UTC().Add(tc.stub).Truncate(time.Millisecond)
			db.clock.StubNow(stub)
			worker := &riverjobs.BackoffWorker{Rand: rand.New(seqrand.Max())} // 5s, the first retry's ceiling
			worker.Client = httpscript.NewTransport(t, httpscript.Respond(503)).Client()
			w := rivertest.NewWorker(t, db.driver, db.config(nil), river.Worker[riverjobs.DeliverArgs](worker))
			before := time.Now().UTC().Truncate(time.Millisecond)
			res, _ := db.work(w, nil)
			after := time.Now().UTC()
			got := db.row(res.Job.ID)
			scheduled, err := time.Parse("2006-01-02 15:04:05.000", got.ScheduledAt)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := before.Add(5*time.Second), after.Add(5*time.Second+time.Millisecond) // the worker's, on the wall clock, stored to the millisecond
			if tc.stub > 0 {
				lo, hi = stub.Add(900*time.Millisecond), stub.Add(1100*time.Millisecond) // River's default after 1 error
			}
			if scheduled.Before(lo) || scheduled.After(hi) || got.State != tc.state {
				t.Errorf("River's stub at %s, the wall clock at %s: River wrote %+v, want %s within [%s, %s]", at(stub), at(before), got, tc.state, at(lo), at(hi))
			}
			if warned := strings.Contains(db.log.String(), "using default retry policy instead"); warned != (tc.stub > 0) {
				t.Errorf("River's log says %q, want the fallback's warning: %t", db.log.String(), tc.stub > 0)
			}
		})
	}
}
