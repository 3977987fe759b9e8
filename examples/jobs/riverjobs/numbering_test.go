package riverjobs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/seqrand"
)

// River's numbering, pinned once: after the first attempt fails, River
// asks the policy about a job whose Attempt is 1 and which has recorded
// no error yet (the failing attempt's error is written with the retry,
// after NextRetry); after the second, Attempt 2 and one error; and so on.
// The Spec's retry k (1 for the first retry, conformance's failed = k-1)
// is River's len(job.Errors)+1, the count River's default policy and
// RetryPolicy read (the errors, not the attempts: snoozes used to move
// Attempt). So RetryPolicy's first retry waits within [0s, 5s], the
// Spec's Policy.Window(1): 5s at the Max source.
func TestRiverCountsErrorsForTheRetry(t *testing.T) {
	db := newDB(t)
	inner := &riverjobs.RetryPolicy{Rand: rand.New(seqrand.Max())}
	inner.Time = db.clock // a wrapper hides the BaseService from the client: give it River's clock by hand
	policy := &policyFunc{next: inner.NextRetry}
	w := db.worker(db.config(policy), httpscript.NewTransport(t, httpscript.Respond(503).Always()))
	res, _ := db.work(w, nil)
	if got := db.row(res.Job.ID); got.ScheduledAt != at(t0.Add(contract.Policy.Window(1).Max)) {
		t.Errorf("the first retry is scheduled at %s, want %s: the top of the Spec's first window, %v", got.ScheduledAt, at(t0.Add(contract.Policy.Window(1).Max)), contract.Policy.Window(1))
	}
	res, _ = db.workAgain(w, res.Job)
	_, _ = db.workAgain(w, res.Job)
	if want := []asked{{Attempt: 1, Errors: 0}, {Attempt: 2, Errors: 1}, {Attempt: 3, Errors: 2}}; !slices.Equal(policy.asked, want) {
		t.Errorf("River asked the policy about jobs %+v, want %+v", policy.asked, want)
	}
}
