package clockctx

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// withAfterFunc returns a context that ends at d on clk, timed by clk's
// AfterFunc: the context for a clock that has none of its own.
func withAfterFunc(parent context.Context, clk clockwork.Clock, d time.Time, cause error) (context.Context, context.CancelFunc) {
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		// The parent ends first, as in the context package.
		return context.WithCancel(parent)
	}
	if cause == nil {
		cause = context.DeadlineExceeded
	}
	x := &afterFuncCtx{parent: parent, deadline: d, done: make(chan struct{})}
	x.holder, x.setCause = context.WithCancelCause(context.Background())
	cancel := func() { x.end(context.Canceled, context.Canceled) }
	if err := parent.Err(); err != nil {
		x.end(err, context.Cause(parent))
		return x, cancel
	}
	left := clk.Until(d)
	if left <= 0 {
		x.end(context.DeadlineExceeded, cause)
		return x, cancel
	}
	x.mu.Lock()
	t := clk.AfterFunc(left, func() { x.end(context.DeadlineExceeded, cause) })
	stopParent := context.AfterFunc(parent, func() { x.end(parent.Err(), context.Cause(parent)) })
	x.stops = []func() bool{t.Stop, stopParent}
	x.mu.Unlock()
	return x, cancel
}

// afterFuncCtx is a context whose deadline is a timer on a clock. Its Err
// never blocks and no goroutine waits for it. It
// answers context.Cause through holder, a context of the standard library
// canceled with the cause when x ends.
type afterFuncCtx struct {
	parent   context.Context
	deadline time.Time
	done     chan struct{}
	holder   context.Context
	setCause context.CancelCauseFunc

	mu    sync.Mutex
	err   error
	stops []func() bool // the timer's and the parent watch's
	funcs []*afterFunc  // registered by contexts derived from x
}

type afterFunc struct {
	f    func()
	done bool
}

// end ends x with err and cause unless it has ended already.
func (x *afterFuncCtx) end(err, cause error) {
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		return
	}
	x.err = err
	x.setCause(cause) // before Done closes, so Cause is right once it has
	close(x.done)
	stops, funcs := x.stops, x.funcs
	x.stops, x.funcs = nil, nil
	for _, a := range funcs {
		a.done = true
	}
	x.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
	for _, a := range funcs {
		a.f()
	}
}

// AfterFunc lets the context package attach contexts derived from x
// without a goroutine each: f runs when x ends, outside x's lock (in a
// goroutine of its own if x has ended already). The returned function
// removes f and reports whether it did.
func (x *afterFuncCtx) AfterFunc(f func()) func() bool {
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

// Deadline returns the instant on the clock at which x ends.
func (x *afterFuncCtx) Deadline() (time.Time, bool) { return x.deadline, true }

// Done returns a channel closed when x ends.
func (x *afterFuncCtx) Done() <-chan struct{} { return x.done }

// Err returns nil until x ends, then why it ended. It never blocks.
func (x *afterFuncCtx) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// Value returns parent's value for key, except that it answers the context
// package's own lookup for context.Cause with holder's.
func (x *afterFuncCtx) Value(key any) any {
	if key == cancelCtxKey && key != nil {
		return x.holder.Value(key)
	}
	return x.parent.Value(key)
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
