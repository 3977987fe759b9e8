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
	checkParent("WithTimeout", parent)
	switch c := clk.(type) {
	case DeadlineClock:
		return c.WithDeadlineCause(parent, c.Now().Add(d), nil)
	case *clockwork.FakeClock:
		return withAfterFunc(parent, c, c.Now().Add(d), nil)
	}
	return context.WithTimeout(parent, d)
}

// WithDeadline returns a copy of parent that ends when clk reaches d, like
// [context.WithDeadline] on clk's time. It picks the context as
// [WithTimeout] does.
func WithDeadline(parent context.Context, clk clockwork.Clock, d time.Time) (context.Context, context.CancelFunc) {
	checkParent("WithDeadline", parent)
	switch c := clk.(type) {
	case DeadlineClock:
		return c.WithDeadlineCause(parent, d, nil)
	case *clockwork.FakeClock:
		return withAfterFunc(parent, c, d, nil)
	}
	return context.WithDeadline(parent, d)
}

// WithTimeoutCause is [WithTimeout] whose context reports cause from
// [context.Cause] once the timeout passes, like [context.WithTimeoutCause].
func WithTimeoutCause(parent context.Context, clk clockwork.Clock, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	checkParent("WithTimeoutCause", parent)
	switch c := clk.(type) {
	case DeadlineClock:
		return c.WithDeadlineCause(parent, c.Now().Add(d), cause)
	case *clockwork.FakeClock:
		return withAfterFunc(parent, c, c.Now().Add(d), cause)
	}
	return context.WithTimeoutCause(parent, d, cause)
}

// WithDeadlineCause is [WithDeadline] whose context reports cause from
// [context.Cause] once the deadline passes, like
// [context.WithDeadlineCause]. It picks the context as [WithTimeoutCause]
// does.
func WithDeadlineCause(parent context.Context, clk clockwork.Clock, d time.Time, cause error) (context.Context, context.CancelFunc) {
	checkParent("WithDeadlineCause", parent)
	switch c := clk.(type) {
	case DeadlineClock:
		return c.WithDeadlineCause(parent, d, cause)
	case *clockwork.FakeClock:
		return withAfterFunc(parent, c, d, cause)
	}
	return context.WithDeadlineCause(parent, d, cause)
}

// checkParent panics on a nil parent, as the context package does, before a
// fake clock's context would fail later in a goroutine of its own.
func checkParent(fn string, parent context.Context) {
	if parent == nil {
		panic("clockctx: " + fn + ": nil parent context")
	}
}
