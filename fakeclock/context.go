package fakeclock

import (
	"context"
	"time"

	"github.com/retrykit/retrykit/internal/timerctx"
)

// WithTimeout returns a copy of parent that ends d from now on the clock,
// like [context.WithTimeout] on fake time. See [Clock.WithDeadlineCause].
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithTimeout", callerFrame(), parent, after(d), nil)
}

// WithTimeoutCause is [Clock.WithTimeout] whose context reports cause from
// [context.Cause] when the timeout passes.
func (c *Clock) WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithTimeoutCause", callerFrame(), parent, after(d), cause)
}

// WithDeadline returns a copy of parent that ends at the clock time d, like
// [context.WithDeadline] on fake time. See [Clock.WithDeadlineCause].
func (c *Clock) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithDeadline", callerFrame(), parent, at(d), nil)
}

// WithDeadlineCause returns a copy of parent whose Done channel closes when
// the clock reaches d, when the returned cancel function is called, or when
// parent ends, whichever happens first, like [context.WithDeadlineCause]:
//
//   - Err returns nil until then, without blocking, and afterwards
//     [context.DeadlineExceeded] (the deadline passed) or
//     [context.Canceled]; contexts derived from it report the same.
//   - Deadline returns d (moved by [Clock.Set] as the clock's timers are).
//   - [context.Cause] returns cause (or DeadlineExceeded when cause is nil)
//     once the deadline passed.
//
// The deadline is a timer on the clock (kind Context in [Clock.Pending]); no
// goroutine waits for it. When parent is a context of the standard library
// that can be canceled, its cancellation reaches the returned context through
// [context.AfterFunc], so shortly after rather than at once; a parent made by
// this package cancels it at once. If parent's deadline is earlier than d,
// the result is context.WithCancel(parent), as in the standard library.
//
// This method makes a *Clock a [clockctx.DeadlineClock]: the functions of
// package clockctx, which production code calls with the clock it is
// handed, return this context for a *Clock.
func (c *Clock) WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithDeadlineCause", callerFrame(), parent, at(d), cause)
}

// withDeadline implements the four methods, named by method, called at s
// (their callerFrame): deadline turns the clock's time into the context's
// deadline.
func (c *Clock) withDeadline(method string, s site, parent context.Context, deadline func(now time.Time) time.Time, cause error) (context.Context, context.CancelFunc) {
	if parent == nil {
		panic("fakeclock: Clock." + method + ": nil parent context")
	}
	if !s.whole() {
		s = callers(1)
	}
	c.mu.Lock()
	end := deadline(c.now)
	d := end.Sub(c.now)
	if cur, ok := parent.Deadline(); ok && cur.Before(end) {
		c.mu.Unlock()
		return context.WithCancel(parent)
	}
	x := &deadlineCtx{Context: timerctx.New(parent, end, cause), clock: c}
	t := &timer{c: c, kind: KindContext, ctx: x, idx: -1, site: s}
	x.SetTimer(func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if t.idx < 0 {
			return false // fired, or taken by Close
		}
		c.removeLocked(t)
		c.counts.Stopped++
		return true
	})
	action := c.armLocked(t, d, true)
	closed := c.closed
	c.mu.Unlock()
	if closed {
		x.End(context.Canceled, ErrClosed)
	} else {
		run(action)
	}
	x.WatchParent()
	return x, x.Cancel
}

// after is the deadline d from now; at is the deadline d.
func after(d time.Duration) func(time.Time) time.Time {
	return func(now time.Time) time.Time { return now.Add(d) }
}

func at(d time.Time) func(time.Time) time.Time {
	return func(time.Time) time.Time { return d }
}

// deadlineCtx is a context that ends on a fake clock's timer: a
// timerctx.Context that names its clock's time when printed.
type deadlineCtx struct {
	*timerctx.Context
	clock *Clock
}

// String describes x for debugging.
func (x *deadlineCtx) String() string {
	d, _ := x.Deadline()
	return "fakeclock.Clock.WithDeadline(" + offset(d.Sub(x.clock.start)) + ")"
}
