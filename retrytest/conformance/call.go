package conformance

import (
	"context"
	"strings"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// call is one call of the code under test.
type call struct {
	tr     *trial
	n      int                 // its number, from 1
	start  time.Time           // on the trial's clock
	sw     *recorder.Stopwatch // a loop's attempts
	rc     *recorder.Call
	done   chan struct{} // closed when the call returns
	cancel context.CancelFunc
}

// begin starts a call. A loop's attempts are answered from script, its
// last answer repeating; a client's from the transport's script. mkCtx may
// put a deadline on the call's context.
func (tr *trial) begin(script []answer, mkCtx func(ctx context.Context, clk *fakeclock.Clock) (context.Context, context.CancelFunc)) *call {
	t := tr.t
	t.Helper()
	tr.mu.Lock()
	tr.n++
	cl := &call{tr: tr, n: tr.n}
	tr.mu.Unlock()
	base, cancel := context.WithCancel(context.Background())
	cl.cancel = cancel
	ctx := base
	if mkCtx != nil {
		var cancelDeadline context.CancelFunc
		ctx, cancelDeadline = mkCtx(base, tr.clk)
		t.Cleanup(cancelDeadline)
	}
	cl.start = now(tr.clk)
	switch tr.c.shape {
	case "loop":
		cl.sw = recorder.NewStopwatch()
		if tr.clk != nil {
			cl.sw.WithClock(tr.clk)
		}
		op := tr.op(cl.sw, script, base)
		cl.done = make(chan struct{})
		cl.rc = recorder.Start(tr.clock(), func() error { defer close(cl.done); return tr.loop(ctx, op) })
	case "client":
		cl.done = make(chan struct{})
		cl.rc = recorder.Start(tr.clock(), func() error { defer close(cl.done); return send(ctx, tr.do, cl.n) })
	}
	t.Cleanup(cl.end)
	return cl
}

func now(clk *fakeclock.Clock) time.Time {
	if clk == nil {
		return time.Now()
	}
	return clk.Now()
}

// finish advances time until cl returns, or until every wait the Spec
// allows, and more, has passed.
func (cl *call) finish() {
	tr := cl.tr
	tr.t.Helper()
	if tr.clk == nil {
		// The bubble's time moves to the call's return, or to the horizon:
		// not past the return, so that what the call left armed is still
		// armed when the suite looks.
		timeout := time.NewTimer(tr.c.horizon() - time.Since(cl.start))
		select {
		case <-cl.done:
		case <-timeout.C:
		}
		timeout.Stop()
		synctest.Wait()
		return
	}
	tr.clk.Step(0)
	tr.mu.Lock()
	calls := tr.n // the waits of every call begun may come first
	tr.mu.Unlock()
	for range (tr.c.limit() + 5) * calls {
		if cl.rc.Returned() {
			return
		}
		next, ok := tr.clk.NextDeadline()
		if !ok || next.Sub(cl.start) > tr.c.horizon() {
			return
		}
		tr.clk.Step(next.Sub(tr.clk.Now()))
	}
}

// end cancels the call and lets it return, before the clock's own cleanup
// checks for leaks. A call that does not return when canceled is driven to
// its end, so that the property that fails for it is CancelDuringWait (or
// NoLeaks), not whichever property made the call.
func (cl *call) end() {
	cl.cancel()
	if cl.tr.clk == nil {
		// A goroutine of the bubble still asleep when the property ends
		// would make synctest.Test panic: "deadlock".
		sleepAndWait(0)
		if !cl.rc.Returned() {
			cl.finish()
		}
		return
	}
	cl.tr.clk.AdvanceAndDrain(context.Background(), 0)
	cl.finish()
}

// schedule is the call's attempts as the checks read them.
func (cl *call) schedule() retrytest.Schedule {
	if cl.sw != nil {
		return cl.sw
	}
	return clientCall{cl}
}

// attempts returns when each attempt of the call began.
func (cl *call) attempts() []time.Duration {
	at, _, _, _ := cl.schedule().RetrySchedule()
	if len(at) == 0 && cl.tr.tr != nil {
		for _, r := range cl.tr.tr.Requests() {
			if r.Header.Get(callHeader) == "" {
				cl.tr.t.Fatalf("conformance: the client sent a request with neither the %s header nor the context of the request the suite passed to Do, so its calls cannot be told apart; build each attempt from that request (req.Clone keeps both) or at least from its context", callHeader)
			}
		}
	}
	return at
}

// delays returns the waits between the call's attempts.
func (cl *call) delays() []time.Duration {
	at := cl.attempts()
	var ds []time.Duration
	for i := 1; i < len(at); i++ {
		ds = append(ds, at[i]-at[i-1])
	}
	return ds
}

// table is the call's schedule as a table, for a failure's text.
func (cl *call) table() string {
	at, results, _, _ := cl.schedule().RetrySchedule()
	rows := make([]schedfmt.Row, len(at))
	var prev time.Duration
	for i, a := range at {
		rows[i] = schedfmt.AttemptRow(i+1, a-prev, a, results[i])
		prev = a
	}
	r := schedfmt.Row{Attempt: "return", At: schedfmt.Duration(cl.rc.At()), Result: errText(cl.rc)}
	if !cl.rc.Returned() {
		r.Attempt, r.Result = "running", "(not returned)"
	}
	rows = append(rows, r)
	return strings.TrimSuffix(schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String(), "\n")
}

func errText(rc *recorder.Call) string {
	if err := rc.Err(); err != nil {
		return err.Error()
	}
	return "<nil>"
}

// notReturned reports, through t, a call that has not returned after the
// suite let every wait it allows pass.
func (cl *call) notReturned() bool {
	t := cl.tr.t
	t.Helper()
	if cl.rc.Returned() {
		return false
	}
	t.Errorf("the call has not returned %s after it began, after %s: it keeps waiting past every wait the Spec allows\n%s",
		schedfmt.Duration(cl.rc.At()), schedfmt.Count(len(cl.attempts()), "attempt"), cl.table())
	return true
}
