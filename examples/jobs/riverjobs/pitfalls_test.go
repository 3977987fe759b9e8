package riverjobs_test

import (
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/httpscript"
)

// River's executor checks the time a ClientRetryPolicy returns: one before
// now is replaced by River's default policy's, attempt⁴ seconds ±10%
// (river@v0.51.2 internal/jobexecutor/job_executor.go:563-571), with a
// warning in the log and nothing else — no error, no event. A policy
// that computes its "now" from another clock than River's (a wall clock
// behind the test's stub, a policy wrapping River's default outside a
// client) gets a retry after about a second, silently. Both sides of the
// boundary: now itself is kept; a millisecond before it is not.
func TestRiverNextRetryBeforeNowFallsBackToTheDefault(t *testing.T) {
	const warning = "Retry policy returned invalid next retry before current time; using default retry policy instead"
	for _, tc := range []struct {
		name     string
		offset   time.Duration // NextRetry - now
		lo, hi   time.Duration // the delay River wrote
		fallback bool
	}{
		{"now", 0, 0, 0, false},
		{"1ms before now", -time.Millisecond, 900 * time.Millisecond, 1100 * time.Millisecond, true}, // [0.9·1⁴ s, 1.1·1⁴ s]
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := newDB(t)
			policy := &policyFunc{next: func(*rivertype.JobRow) time.Time { return db.clock.Now().Add(tc.offset) }}
			w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(503)))
			res, _ := db.work(w, nil)
			got := db.row(res.Job.ID)
			at, err := time.Parse("2006-01-02 15:04:05.000", got.ScheduledAt)
			if err != nil {
				t.Fatal(err)
			}
			if d := at.Sub(t0); d < tc.lo || d > tc.hi || got.State != "available" {
				t.Errorf("NextRetry at now%+v: River wrote %+v, a delay of %s, want available within [%s, %s]", tc.offset, got, d, tc.lo, tc.hi)
			}
			if warned := strings.Contains(db.log.String(), warning); warned != tc.fallback {
				t.Errorf("NextRetry at now%+v: River's log says %q, want the fallback's warning: %t", tc.offset, db.log.String(), tc.fallback)
			}
		})
	}
}

// A retry due within the scheduler's interval, 5s by default, is written
// as available, not retryable, so the executor does not wait for the
// scheduler's next run (river@v0.51.2
// internal/jobexecutor/job_executor.go:573-583): a test that expects
// "retryable" after a short delay fails, and a dashboard that counts
// retryable jobs misses these. Its scheduled_at still holds: River fetches
// an available job only once it is due. Both sides of the boundary: 5s is
// available, 5.001s retryable.
func TestRiverRetryWithinSchedulerIntervalIsAvailable(t *testing.T) {
	for _, tc := range []struct {
		delay time.Duration
		state string
	}{
		{5 * time.Second, "available"},
		{5*time.Second + time.Millisecond, "retryable"},
	} {
		t.Run(tc.delay.String(), func(t *testing.T) {
			db := newDB(t)
			policy := &policyFunc{next: func(*rivertype.JobRow) time.Time { return db.clock.Now().Add(tc.delay) }}
			w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(503)))
			res, _ := db.work(w, nil)
			if got, want := db.row(res.Job.ID), (row{State: tc.state, ScheduledAt: at(t0.Add(tc.delay)), Attempt: 1, Errors: 1}); got != want {
				t.Errorf("a retry %s after the failure: River wrote %+v, want %+v", tc.delay, got, want)
			}
		})
	}
}
