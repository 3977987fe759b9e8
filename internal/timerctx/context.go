package timerctx

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Context is a [context.Context] that ends when its owner's timer calls
// [Context.Expire], when [Context.Cancel] or [Context.End] is called, or
// when its parent ends, whichever comes first. Its Err never blocks and no
// goroutine waits for it. A Context is safe for concurrent use.
type Context struct {
	parent context.Context
	cause  error // reported by context.Cause after Expire
	done   chan struct{}
	// holder is a context of the standard library, canceled with x's cause
	// when x ends: Value hands it to context.Cause.
	holder   context.Context
	setCause context.CancelCauseFunc

	mu       sync.Mutex
	deadline time.Time
	err      error
	// stopTimer removes the owner's timer; stopParent stops watching the
	// parent. Both are nil until set, and after x ends.
	stopTimer  func() bool
	stopParent func() bool
	funcs      []*afterFunc // registered by contexts derived from x
}

type afterFunc struct {
	f    func()
	done bool
}

// New returns a Context under parent whose deadline is d and whose
// [context.Cause], once it expires, is cause ([context.DeadlineExceeded]
// when cause is nil). It has no timer and does not watch parent yet: see
// [Context.SetTimer] and [Context.WatchParent].
func New(parent context.Context, d time.Time, cause error) *Context {
	if cause == nil {
		cause = context.DeadlineExceeded
	}
	x := &Context{parent: parent, cause: cause, deadline: d, done: make(chan struct{})}
	x.holder, x.setCause = context.WithCancelCause(context.Background())
	return x
}

// SetTimer records stop, the Stop of the timer that expires x, so that x
// stops the timer when it ends some other way. If x has ended already,
// SetTimer calls stop at once. Calling stop after the timer fired must be
// harmless (it is for every timer): x calls it however it ends.
func (x *Context) SetTimer(stop func() bool) {
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		stop()
		return
	}
	x.stopTimer = stop
	x.mu.Unlock()
}

// WatchParent makes x end when its parent does, with the parent's error
// and cause: at once if the parent has ended already, as the context
// package does; synchronously when the parent has an AfterFunc method (a
// Context does), so that a Context under a Context ends with it; otherwise
// through [context.AfterFunc], shortly after.
func (x *Context) WatchParent() {
	p := x.parent
	if p.Done() == nil {
		return // never ends
	}
	end := func() { x.End(p.Err(), context.Cause(p)) }
	if p.Err() != nil {
		end()
		return
	}
	var stop func() bool
	if a, ok := p.(interface{ AfterFunc(func()) func() bool }); ok {
		stop = a.AfterFunc(end)
	} else {
		stop = context.AfterFunc(p, end)
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

// Expire ends x because its deadline passed: Err reports
// [context.DeadlineExceeded] and [context.Cause] the cause given to [New].
// The owner's timer calls it.
func (x *Context) Expire() { x.End(context.DeadlineExceeded, x.cause) }

// Cancel ends x with [context.Canceled]: it is x's [context.CancelFunc].
func (x *Context) Cancel() { x.End(context.Canceled, nil) }

// End ends x with err, and with cause for [context.Cause] (err when cause
// is nil), unless x has ended already. It stops the timer and the watch of
// the parent, then runs the functions registered through
// [Context.AfterFunc], in order, in End's goroutine, outside every lock of
// x.
func (x *Context) End(err, cause error) {
	if cause == nil {
		cause = err
	}
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		return
	}
	x.err = err
	x.setCause(cause) // before Done closes, so Cause is right once it has
	close(x.done)
	stopTimer, stopParent, funcs := x.stopTimer, x.stopParent, x.funcs
	x.stopTimer, x.stopParent, x.funcs = nil, nil, nil
	for _, a := range funcs {
		a.done = true
	}
	x.mu.Unlock()
	if stopTimer != nil {
		stopTimer()
	}
	if stopParent != nil {
		stopParent()
	}
	for _, a := range funcs {
		a.f()
	}
}

// Shift moves x's deadline by d, as a clock whose wall time jumps moves
// its timers.
func (x *Context) Shift(d time.Duration) {
	x.mu.Lock()
	x.deadline = x.deadline.Add(d)
	x.mu.Unlock()
}

// Deadline returns the instant, on its owner's clock, at which x ends.
func (x *Context) Deadline() (time.Time, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.deadline, true
}

// Done returns a channel closed when x ends.
func (x *Context) Done() <-chan struct{} { return x.done }

// Err returns nil until x ends, then why it ended. It never blocks.
func (x *Context) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// Value returns the parent's value for key, except that it answers the
// context package's own lookup for [context.Cause] with x's cause.
func (x *Context) Value(key any) any {
	if key == cancelCtxKey && key != nil {
		return x.holder.Value(key)
	}
	return x.parent.Value(key)
}

// AfterFunc lets the context package attach contexts derived from x
// without a goroutine each: f runs when x ends, in the goroutine that ends
// it and outside every lock of x (or in a goroutine of its own if x has
// ended already). The returned function removes f and reports whether it
// did.
func (x *Context) AfterFunc(f func()) func() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.err != nil {
		go f()
		return func() bool { return false }
	}
	a := &afterFunc{f: f}
	x.funcs = append(x.funcs, a)
	return func() bool {
		x.mu.Lock()
		defer x.mu.Unlock()
		if a.done {
			return false
		}
		a.done = true
		x.funcs = slices.DeleteFunc(x.funcs, func(b *afterFunc) bool { return b == a })
		return true
	}
}
