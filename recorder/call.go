package recorder

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Call is a call of the code under test running on a goroutine of its own,
// timed on a clock: start it, step the clock, then read whether and when
// it returned, and with what error, for retrytest.CheckStopped. It
// replaces the goroutine, channel and select that a test would write
// around the call.
//
//	ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 2*time.Second)
//	defer cancel()
//	call := recorder.Start(clk, func() error { return client.Get(ctx, url) })
//	clk.Step(time.Minute)
//	retrytest.AssertStopped(t, tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
//
// A result other than the error is read through the closure: assign it
// inside f, and read it once [Call.Returned] reports true (Returned is the
// happens-before edge). A Call is safe for concurrent use.
type Call struct {
	clk   clockwork.Clock // nil: the time package
	start time.Time

	mu       sync.Mutex
	returned bool
	at       time.Duration
	err      error
}

// Start calls f on a goroutine of its own and returns at once. The call is
// timed on clk — a fakeclock.Clock, a clockwork fake clock — or, with a
// nil clk, on the time package, which is fake inside a testing/synctest
// bubble. Start panics if f is nil, and if clk is nil outside a bubble,
// where the time package is the real clock.
func Start(clk clockwork.Clock, f func() error) *Call {
	switch {
	case f == nil:
		panic("recorder: Start: nil func")
	case clk == nil && !inBubble():
		panic("recorder: Start: nil clock outside a testing/synctest bubble, where the call would be timed in real time; " +
			"pass the fake clock the code under test waits on, or call Start inside the function given to synctest.Test")
	}
	c := &Call{clk: clk, start: now(clk)}
	go func() {
		err := f()
		at := now(clk).Sub(c.start)
		c.mu.Lock()
		c.returned, c.at, c.err = true, at, err
		c.mu.Unlock()
	}()
	return c
}

// now reads clk, or the time package when clk is nil.
func now(clk clockwork.Clock) time.Time {
	if clk == nil {
		return time.Now()
	}
	return clk.Now()
}

// State reports the call's state in one look: whether it has returned,
// when it returned (or, while it runs, how long it has run so far), and
// the error it returned.
func (c *Call) State() (returned bool, at time.Duration, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.returned {
		return true, c.at, c.err
	}
	return false, now(c.clk).Sub(c.start), nil
}

// Returned reports whether the call has returned.
func (c *Call) Returned() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.returned
}

// Err returns the error the call returned, or nil while it runs.
func (c *Call) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// At returns when the call returned, on its clock, from its start; while
// it runs, how long it has run so far.
func (c *Call) At() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.returned {
		return c.at
	}
	return now(c.clk).Sub(c.start)
}

// String says how the call stands: "returned at 2s: context deadline
// exceeded", "returned at 1.5s: <nil>" or "running at 5s".
func (c *Call) String() string {
	c.mu.Lock()
	returned, at, err := c.returned, c.at, c.err
	c.mu.Unlock()
	if !returned {
		return "running at " + schedfmt.Duration(now(c.clk).Sub(c.start))
	}
	return "returned at " + schedfmt.Duration(at) + ": " + schedfmt.ErrCell(err)
}

// inBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble, where the time package is fake.
func inBubble() bool { return goheader.InBubble() }
