package clockctx

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// WithTimeout returns a copy of parent that ends d from now on clk, like
// [context.WithTimeout] on clk's time: for a [DeadlineClock] (retrykit's
// fakeclock.Clock) the clock's own context, for a *clockwork.FakeClock a
// context of this package timed by its AfterFunc, and for any other clock,
// or a nil one, context.WithTimeout's. Call the returned function as soon
// as the work it bounds is done, as with the context package.
//
// Use it, not clockwork.WithTimeout, in code that is handed a clock:
// clockwork's silently falls back to real time for every clock but its own.
func WithTimeout(parent context.Context, clk clockwork.Clock, d time.Duration) (context.Context, context.CancelFunc) {
	return withDeadline("WithTimeout", parent, clk, after(d), nil)
}

// WithDeadline returns a copy of parent that ends when clk reaches d, like
// [context.WithDeadline] on clk's time. It picks the context as
// [WithTimeout] does.
func WithDeadline(parent context.Context, clk clockwork.Clock, d time.Time) (context.Context, context.CancelFunc) {
	return withDeadline("WithDeadline", parent, clk, at(d), nil)
}

// WithTimeoutCause is [WithTimeout] whose context reports cause from
// [context.Cause] once the timeout passes, like [context.WithTimeoutCause].
func WithTimeoutCause(parent context.Context, clk clockwork.Clock, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return withDeadline("WithTimeoutCause", parent, clk, after(d), cause)
}

// WithDeadlineCause is [WithDeadline] whose context reports cause from
// [context.Cause] once the deadline passes, like
// [context.WithDeadlineCause]. It picks the context as [WithTimeoutCause]
// does.
func WithDeadlineCause(parent context.Context, clk clockwork.Clock, d time.Time, cause error) (context.Context, context.CancelFunc) {
	return withDeadline("WithDeadlineCause", parent, clk, at(d), cause)
}

// withDeadline implements the four functions: deadline turns the current
// time of the clock that times the context into its deadline. Any clock
// other than a DeadlineClock or a *clockwork.FakeClock gets the context
// package's context, timed from the real time.Now (as context.WithTimeout
// is), whatever that clock's Now says.
func withDeadline(fn string, parent context.Context, clk clockwork.Clock, deadline func(now time.Time) time.Time, cause error) (context.Context, context.CancelFunc) {
	if parent == nil {
		// As the context package does, before a fake clock's context
		// would fail later in a goroutine of its own.
		panic("clockctx: " + fn + ": nil parent context")
	}
	switch c := clk.(type) {
	case DeadlineClock:
		return c.WithDeadlineCause(parent, deadline(c.Now()), cause)
	case *clockwork.FakeClock:
		return withAfterFunc(parent, c, deadline(c.Now()), cause)
	}
	return context.WithDeadlineCause(parent, deadline(time.Now()), cause)
}

// after is the deadline d from now; at is the deadline d.
func after(d time.Duration) func(time.Time) time.Time {
	return func(now time.Time) time.Time { return now.Add(d) }
}

func at(d time.Time) func(time.Time) time.Time {
	return func(time.Time) time.Time { return d }
}
