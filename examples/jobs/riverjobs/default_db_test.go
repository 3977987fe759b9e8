package riverjobs_test

import (
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/retrykit/retrykit/httpscript"
)

// River's default policy on the real adapter, every retry of its 25
// attempts: River wrote a scheduled_at whose delay after the failed
// attempt lies within [0.9·n⁴, 1.1·n⁴] seconds for the job's n-th error
// (river@v0.51.2 internal/retrypolicy/default.go:37,91: attempt⁴ seconds
// ±10%, drawn from math/rand/v2's global source, which a test cannot
// pin). The stub clock moves to each scheduled_at, 20 days in all. The
// edges are whole milliseconds and so is River's clock, so the check
// survives the driver's rounding to the millisecond exactly.
func TestRiverDefaultPolicySchedulesWithinNToTheFourth(t *testing.T) {
	db := newDB(t)
	cfg := db.config(nil) // River's default policy, given River's clock by the client
	cfg.MaxAttempts = 0   // and River's default MaxAttempts
	w := db.worker(cfg, httpscript.NewTransport(t, httpscript.Respond(503).Always()))
	res, _ := db.work(w, nil)
	if res.Job.MaxAttempts != river.MaxAttemptsDefault || river.MaxAttemptsDefault != 25 {
		t.Fatalf("the job has MaxAttempts %d (River's default %d), want 25", res.Job.MaxAttempts, river.MaxAttemptsDefault)
	}
	for n := 1; n < 25; n++ {
		now := db.clock.Now()
		got := db.row(res.Job.ID)
		at, err := time.Parse("2006-01-02 15:04:05.000", got.ScheduledAt)
		if err != nil {
			t.Fatal(err)
		}
		n4 := time.Duration(n * n * n * n)
		lo, hi := n4*900*time.Millisecond, n4*1100*time.Millisecond
		if d := at.Sub(now); d < lo || d > hi || got.Attempt != n || got.Errors != n {
			t.Fatalf("after error %d at %s, River wrote %+v: a delay of %s, want within [0.9·%d⁴ s, 1.1·%d⁴ s] = [%s, %s], attempt %d, %d errors",
				n, db.clock.Now().Format(time.DateTime), got, d, n, n, lo, hi, n, n)
		}
		res, _ = db.workAgain(w, res.Job)
	}
	if got := db.row(res.Job.ID); got.State != "discarded" || got.Attempt != 25 {
		t.Errorf("after attempt 25 failed, River wrote %+v, want it discarded", got)
	}
}
