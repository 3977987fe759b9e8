package retrytest

import (
	"context"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// DeadlineCall is a call under an overall deadline, started on a goroutine
// of its own by [StartWithDeadline] or [StartWithBudget] and timed on a
// clock: the fake-clock counterpart of [RunWithDeadline]. Start it, step
// the clock past the deadline (fakeclock's Clock.Step), then check
// [DeadlineCall.Result]:
//
//	clk := fakeclock.New(t)
//	tr := retrytest.NewTransport(t, retrytest.Respond(503).Always()).WithClock(clk)
//	call := retrytest.StartWithDeadline(t.Context(), clk, 2*time.Second, func(ctx context.Context) error {
//		return client.Get(ctx, url) // waits on clk: 500ms, 1s, 2s, 4s between attempts
//	})
//	clk.Step(time.Minute)
//	retrytest.AssertAbortedAtDeadline(t, tr, call.Result()) // returned at 2s, mid-wait
//
// A DeadlineCall is safe for concurrent use.
type DeadlineCall struct {
	clk      clockwork.Clock
	start    time.Time
	deadline time.Duration

	mu       sync.Mutex
	returned bool
	at       time.Duration
	err      error
}

// StartWithDeadline calls call on a goroutine of its own with a child of
// ctx that ends deadline after now on clk — fake time for a
// fakeclock.Clock or a clockwork fake clock (see [clockctx.WithTimeout]) —
// and times its return on clk. It returns at once. Give ctx the test's
// context (t.Context()), so that a call the deadline failed to stop ends
// with the test.
//
// It panics if clk or call is nil or deadline is not positive.
func StartWithDeadline(ctx context.Context, clk clockwork.Clock, deadline time.Duration, call func(ctx context.Context) error) *DeadlineCall {
	c := newDeadlineCall("StartWithDeadline", "deadline", clk, deadline, call)
	cctx, cancel := clockctx.WithTimeout(ctx, clk, deadline)
	go c.run(cctx, cancel, call)
	return c
}

// StartWithBudget is [StartWithDeadline] for code that enforces its own
// total budget, such as a retry loop with a MaxElapsedTime option: call
// gets ctx as it is, with no deadline that could stop the loop in the
// budget's place, and the run is checked against budget.
//
// It panics if clk or call is nil or budget is not positive.
func StartWithBudget(ctx context.Context, clk clockwork.Clock, budget time.Duration, call func(ctx context.Context) error) *DeadlineCall {
	c := newDeadlineCall("StartWithBudget", "budget", clk, budget, call)
	go c.run(ctx, func() {}, call)
	return c
}

// newDeadlineCall checks the arguments of fn, whose limit is called what
// (a deadline or a budget), and returns the call, started now on clk.
func newDeadlineCall(fn, what string, clk clockwork.Clock, deadline time.Duration, call func(ctx context.Context) error) *DeadlineCall {
	switch {
	case clk == nil:
		panic("retrytest: " + fn + ": nil clock; inside a synctest bubble, use RunWithDeadline")
	case call == nil:
		panic("retrytest: " + fn + ": nil call")
	case deadline <= 0:
		panic("retrytest: " + fn + ": " + what + " " + schedfmt.Duration(deadline) + ", want > 0s")
	}
	return &DeadlineCall{clk: clk, start: clk.Now(), deadline: deadline}
}

func (c *DeadlineCall) run(ctx context.Context, cancel context.CancelFunc, call func(ctx context.Context) error) {
	defer cancel()
	err := call(ctx)
	at := c.clk.Since(c.start)
	c.mu.Lock()
	c.returned, c.at, c.err = true, at, err
	c.mu.Unlock()
}

// Result returns how the call ended, for [CheckAbortedAtDeadline]: the
// deadline, when the call returned (on the clock, from its start) and its
// error. A call that has not returned yet gives a DeadlineRun whose Running
// is set and whose Returned is the time now, on the clock, and the check
// fails saying the loop is still running.
func (c *DeadlineCall) Result() DeadlineRun {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.returned {
		return DeadlineRun{Deadline: c.deadline, Returned: c.clk.Since(c.start), Running: true}
	}
	return DeadlineRun{Deadline: c.deadline, Returned: c.at, Err: c.err}
}
