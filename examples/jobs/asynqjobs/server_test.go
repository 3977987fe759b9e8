package asynqjobs_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/examples/jobs/asynqjobs"
	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/seqrand"
)

var event = webhook.Event{ID: "evt-1", URL: "https://hooks.example.com/in"}

func newTask(t *testing.T, opts ...asynq.Option) *asynq.Task {
	t.Helper()
	task, err := asynqjobs.NewTask(event, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

// The seed's step 5 on asynq's real server and a real Redis: a delivery
// that fails with a 503 is moved to the retry set, due at exactly the
// policy's delay after the failure — at the Max source the top of each
// window, min(1h, 5s·2^n): 5s for the first retry, then 10s, 20s — to
// the second asynq stores.
func TestAsynqSchedulesTheRetryAtThePolicysDelay(t *testing.T) {
	q := newQueue(t)
	h := &asynqjobs.Handler{Client: httpscript.NewTransport(t, httpscript.Respond(503).Always()).Client()}
	delay := asynqjobs.RetryDelay(rand.New(seqrand.Max()))
	info := q.enqueue(newTask(t))
	for n, want := range []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second} {
		r := q.runOnce(delay, h)
		if se, ok := errors.AsType[*webhook.StatusError](r.err); !ok || se.StatusCode != 503 {
			t.Fatalf("run %d: the handler returned %v, want the 503", n+1, r.err)
		}
		got := q.retried()
		if got.ID != info.ID || got.Retried != n+1 || got.MaxRetry != asynqjobs.MaxRetry {
			t.Errorf("run %d: the retry set holds task %s, retried %d of %d, want %s, retried %d of 12", n+1, got.ID, got.Retried, got.MaxRetry, info.ID, n+1)
		}
		checkRetryAt(t, got, r, want, want)
		q.again(info.ID)
	}
}

// asynq's numbering, pinned once: for the first retry asynq passes the
// RetryDelayFunc n = 0 (the task's Retried before the failure;
// processor.go:357), and the task then shows Retried 1; for the second,
// n = 1 and Retried 2. So the Spec's retry k (1 for the first) is asynq's
// n = k-1, conformance's failed, and RetryDelay's first retry waits within
// the Spec's Policy.Window(1), [0s, 5s].
func TestAsynqCountsRetriesFromZero(t *testing.T) {
	q := newQueue(t)
	h := &asynqjobs.Handler{Client: httpscript.NewTransport(t, httpscript.Respond(503).Always()).Client()}
	rec := &recorder{delay: asynqjobs.RetryDelay(rand.New(seqrand.Max()))}
	info := q.enqueue(newTask(t))
	r := q.runOnce(rec.RetryDelay, h)
	if got := q.retried(); got.Retried != 1 {
		t.Errorf("after the first failure the task shows Retried %d, want 1", got.Retried)
	} else {
		w := contract.Policy.Window(1)
		checkRetryAt(t, got, r, w.Max, w.Max)
	}
	q.again(info.ID)
	q.runOnce(rec.RetryDelay, h)
	if got := q.retried(); got.Retried != 2 {
		t.Errorf("after the second failure the task shows Retried %d, want 2", got.Retried)
	}
	if got := rec.calls(); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("asynq passed the RetryDelayFunc n = %v, want [0 1]", got)
	}
}

// A delivery the endpoint refuses with a 404 will not succeed later: the
// handler's error wraps asynq.SkipRetry, and asynq archives the task
// without asking the policy; the retry set stays empty.
func TestAsynqArchivesAPermanentFailure(t *testing.T) {
	q := newQueue(t)
	h := &asynqjobs.Handler{Client: httpscript.NewTransport(t, httpscript.Respond(404)).Client()}
	rec := &recorder{delay: asynqjobs.RetryDelay(nil)}
	info := q.enqueue(newTask(t))
	if r := q.runOnce(rec.RetryDelay, h); !errors.Is(r.err, asynq.SkipRetry) {
		t.Errorf("the handler returned %v, want an error wrapping asynq.SkipRetry", r.err)
	}
	q.checkArchived(info.ID, "404")
	if got := rec.calls(); len(got) != 0 {
		t.Errorf("asynq asked the policy %v, want never for a permanent failure", got)
	}
}

// A task enqueued with MaxRetry(1) is retried once, then archived:
// asynq stops at the task's MaxRetry without asking the policy.
func TestAsynqArchivesAfterTheLastRetry(t *testing.T) {
	q := newQueue(t)
	h := &asynqjobs.Handler{Client: httpscript.NewTransport(t, httpscript.Respond(503).Always()).Client()}
	rec := &recorder{delay: asynqjobs.RetryDelay(rand.New(seqrand.Max()))}
	info := q.enqueue(newTask(t, asynq.MaxRetry(1)))
	q.runOnce(rec.RetryDelay, h)
	if got := q.retried(); got.Retried != 1 || got.MaxRetry != 1 {
		t.Fatalf("after the first failure the task shows Retried %d of %d, want 1 of 1", got.Retried, got.MaxRetry)
	}
	q.again(info.ID)
	q.runOnce(rec.RetryDelay, h)
	q.checkArchived(info.ID, "503")
	if got := rec.calls(); !slices.Equal(got, []int{0}) {
		t.Errorf("asynq asked the policy with n = %v, want [0]: once, not after the last retry", got)
	}
}

// asynq's default policy on its real server: the first retry is due
// 15s + U{0…29}·1s after the failure, (0⁴ + 15 + k·1) s
// (server.go:401-405), within [15s, 44s].
func TestAsynqDefaultRetryDelayOnTheServer(t *testing.T) {
	q := newQueue(t)
	h := &asynqjobs.Handler{Client: httpscript.NewTransport(t, httpscript.Respond(503)).Client()}
	q.enqueue(newTask(t))
	r := q.runOnce(nil, h)
	checkRetryAt(t, q.retried(), r, 15*time.Second, 44*time.Second)
}

// checkArchived checks that the queue's archive holds the task, with an
// error naming the status, and the retry set nothing.
func (q *queue) checkArchived(id, status string) {
	q.t.Helper()
	archived, err := q.inspector.ListArchivedTasks(q.name)
	if err != nil || len(archived) != 1 || archived[0].ID != id || !strings.Contains(archived[0].LastErr, status) {
		q.t.Errorf("asynq: ListArchivedTasks(%s) = %v, %v; want task %s, its last error naming %s", q.name, archived, err, id, status)
	}
	if retry, err := q.inspector.ListRetryTasks(q.name); err != nil || len(retry) != 0 {
		q.t.Errorf("asynq: ListRetryTasks(%s) = %d tasks, %v; want none", q.name, len(retry), err)
	}
}
