package fakeclock

import (
	"context"
	"sync"
	"time"
)

// WithTimeout returns a copy of parent that ends d from now on the clock,
// like [context.WithTimeout] on fake time. See [Clock.WithDeadlineCause].
func (c *Clock) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithTimeout", parent, after(d), nil)
}

// WithTimeoutCause is [Clock.WithTimeout] whose context reports cause from
// [context.Cause] when the timeout passes.
func (c *Clock) WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithTimeoutCause", parent, after(d), cause)
}

// WithDeadline returns a copy of parent that ends at the clock time d, like
// [context.WithDeadline] on fake time. See [Clock.WithDeadlineCause].
func (c *Clock) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return c.withDeadline("WithDeadline", parent, at(d), nil)
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
	return c.withDeadline("WithDeadlineCause", parent, at(d), cause)
}

// withDeadline implements the four methods, named by method: deadline
// turns the clock's time into the context's deadline.
func (c *Clock) withDeadline(method string, parent context.Context, deadline func(now time.Time) time.Time, cause error) (context.Context, context.CancelFunc) {
	if parent == nil {
		panic("fakeclock: Clock." + method + ": nil parent context")
	}
	s := callers()
	c.mu.Lock()
	end := deadline(c.now)
	d := end.Sub(c.now)
	if cur, ok := parent.Deadline(); ok && cur.Before(end) {
		c.delays = append(c.delays, d)
		c.mu.Unlock()
		return context.WithCancel(parent)
	}
	x := newDeadlineCtx(parent, end, cause)
	t := &timer{c: c, kind: KindContext, ctx: x, idx: -1, site: s}
	x.stopTimer = func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if t.idx < 0 {
			return false
		}
		c.removeLocked(t)
		c.counts.Stopped++
		return true
	}
	x.clock = c
	action := c.armLocked(t, d, true)
	closed := c.closed
	c.mu.Unlock()
	if closed {
		x.finish(context.Canceled, ErrClosed, false)
	} else {
		run(action)
	}
	x.watchParent()
	return x, func() { x.finish(context.Canceled, nil, false) }
}

// after is the deadline d from now; at is the deadline d.
func after(d time.Duration) func(time.Time) time.Time {
	return func(now time.Time) time.Time { return now.Add(d) }
}

func at(d time.Time) func(time.Time) time.Time {
	return func(time.Time) time.Time { return d }
}

// deadlineCtx is a context that ends on a fake clock's timer.
type deadlineCtx struct {
	parent context.Context
	clock  *Clock
	cause  error // reported by context.Cause after the deadline

	mu       sync.Mutex
	deadline time.Time
	done     chan struct{}
	err      error
	funcs    []*ctxFunc
	// stopTimer removes the deadline's timer; stopParent stops watching
	// the parent.
	stopTimer  func() bool
	stopParent func() bool
	// holder carries the cause for context.Cause (see Value).
	holder       context.Context
	holderCancel context.CancelCauseFunc
}

type ctxFunc struct {
	f    func()
	done bool
}

func newDeadlineCtx(parent context.Context, d time.Time, cause error) *deadlineCtx {
	x := &deadlineCtx{parent: parent, deadline: d, cause: cause, done: make(chan struct{})}
	x.holder, x.holderCancel = context.WithCancelCause(context.Background())
	return x
}

// watchParent ends x when its parent ends.
func (x *deadlineCtx) watchParent() {
	if x.parent.Done() == nil {
		return
	}
	f := func() { x.finish(x.parent.Err(), context.Cause(x.parent), false) }
	if x.parent.Err() != nil {
		f() // as the standard library does, end at once under an ended parent
		return
	}
	var stop func() bool
	if a, ok := x.parent.(interface{ AfterFunc(func()) func() bool }); ok {
		stop = a.AfterFunc(f)
	} else {
		stop = context.AfterFunc(x.parent, f)
	}
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		stop()
		return
	}
	x.stopParent = stop
	x.mu.Unlock()
}

// expire ends x because its deadline passed.
func (x *deadlineCtx) expire() {
	cause := x.cause
	if cause == nil {
		cause = context.DeadlineExceeded
	}
	x.finish(context.DeadlineExceeded, cause, true)
}

// finish ends x with err and cause (err when cause is nil) unless it has
// ended already, stops its timer unless the timer is what fired, then runs
// the functions registered by contexts derived from it, outside every lock.
func (x *deadlineCtx) finish(err, cause error, fromTimer bool) {
	if cause == nil {
		cause = err
	}
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		return
	}
	x.err = err
	x.holderCancel(cause)
	close(x.done)
	funcs := x.funcs
	x.funcs = nil
	for _, f := range funcs {
		f.done = true
	}
	stopParent, stopT := x.stopParent, x.stopTimer
	x.mu.Unlock()
	if stopParent != nil {
		stopParent()
	}
	if stopT != nil && !fromTimer {
		stopT()
	}
	for _, f := range funcs {
		f.f()
	}
}

// Deadline returns the instant on the fake clock at which x ends.
func (x *deadlineCtx) Deadline() (time.Time, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.deadline, true
}

func (x *deadlineCtx) shift(d time.Duration) {
	x.mu.Lock()
	x.deadline = x.deadline.Add(d)
	x.mu.Unlock()
}

// Done returns a channel closed when x ends.
func (x *deadlineCtx) Done() <-chan struct{} { return x.done }

// Err returns nil until x ends, then why it ended. It never blocks.
func (x *deadlineCtx) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// Value returns the parent's value for key, except that it answers the
// context package's own lookup for context.Cause with x's cause.
func (x *deadlineCtx) Value(key any) any {
	if key == cancelCtxKey && key != nil {
		return x.holder.Value(key)
	}
	return x.parent.Value(key)
}

// AfterFunc lets the context package attach derived contexts to x without a
// goroutine: f runs, synchronously and outside every lock of the clock,
// when x ends (or in its own goroutine if x has ended already). The
// returned stop removes f and reports whether it did.
func (x *deadlineCtx) AfterFunc(f func()) func() bool {
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	e := &ctxFunc{f: f}
	x.funcs = append(x.funcs, e)
	x.mu.Unlock()
	return func() bool {
		x.mu.Lock()
		defer x.mu.Unlock()
		if e.done {
			return false
		}
		e.done = true
		for i, g := range x.funcs {
			if g == e {
				x.funcs = append(x.funcs[:i], x.funcs[i+1:]...)
				break
			}
		}
		return true
	}
}

// String describes x for debugging.
func (x *deadlineCtx) String() string {
	x.mu.Lock()
	d := x.deadline
	x.mu.Unlock()
	return "fakeclock.Clock.WithDeadline(" + offset(d.Sub(x.clock.start)) + ")"
}

// cancelCtxKey is the key the context package looks up to find a context's
// cause. It is unexported there; context.Cause reveals it by asking the
// context it is given.
var cancelCtxKey = func() any {
	p := &keyProbe{Context: context.Background()}
	_ = context.Cause(p)
	return p.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Err() error { return context.Canceled }

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}
