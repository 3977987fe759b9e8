package fakeclock

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// ErrLoopLimit is wrapped by the error an advance returns when it fired more
// timers than the loop limit allows (see [WithLoopLimit]): something keeps
// re-arming a timer or ticker that is already due.
var ErrLoopLimit = errors.New("fakeclock: loop limit exceeded")

// Advance moves the clock forward by d the way clockwork's FakeClock does:
// it fires the timers due by now+d in deadline order, with Now equal to each
// timer's deadline while it fires, and then sets Now to now+d. It waits for
// nothing: not for the code it wakes, nor for code still running to arm
// its timer. Use [Clock.Step] for that.
//
// A negative d is a mistake in the test: Advance reports it with Errorf on
// the clock's FixtureT, naming the call site, and does nothing.
func (c *Clock) Advance(d time.Duration) {
	c.t.Helper()
	op := "Advance(" + schedfmt.Duration(d) + ")"
	if d < 0 {
		c.t.Errorf("fakeclock: %s at %s: negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)", op, callers(0))
		return
	}
	if c.begin(op) != nil {
		c.t.Errorf("fakeclock: %s at %s: %v", op, callers(0), errConcurrent)
		return
	}
	defer c.advancing.Store(false)
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	if err := c.fireDue(context.Background(), op, end, false); err != nil {
		c.t.Errorf("%v", err)
	}
}

var errConcurrent = errors.New("another advance of this clock is in progress (advances must not run concurrently, nor from code the advance wakes)")

// begin starts the advance op, or fails if another advance of the clock is
// in progress. The caller ends it with c.advancing.Store(false).
func (c *Clock) begin(op string) error {
	if !c.advancing.CompareAndSwap(false, true) {
		return fmt.Errorf("fakeclock: %s: %w", op, errConcurrent)
	}
	c.mu.Lock()
	c.advances.Add(1)
	c.zeroFired = 0
	c.mu.Unlock()
	return nil
}

// AdvanceAndDrain is [Clock.Step] returning its error instead of failing
// the test, for a goroutine other than the test's and for a budget of its
// own (ctx): the Go counterpart of Vitest's vi.advanceTimersByTimeAsync.
// It waits for the code under test to settle; then, while a timer is due
// by now+d, it sets Now to the earliest such timer's deadline, fires it,
// and waits for the code to settle again, so that timers armed by the
// woken code inside the window fire in the same call, in order. Finally
// Now is now+d. A d of 0 only settles. An advance fires at most the loop
// limit's number of timers ([WithLoopLimit]): a live ticker or a timer
// re-armed with no delay fails it, naming their call sites.
//
// Settling is described in the package documentation. If the code does not
// settle before ctx ends (or before a default real-time budget when ctx has
// no deadline and the clock runs outside a synctest bubble),
// AdvanceAndDrain returns an error wrapping [ErrNotSettled] that lists the
// goroutines still busy, with their stacks, and the pending timers. A
// negative d returns an error and changes nothing.
func (c *Clock) AdvanceAndDrain(ctx context.Context, d time.Duration) error {
	return c.advanceAndDrain(ctx, "AdvanceAndDrain", d)
}

// Step advances the clock by d and waits for the code it wakes: before it
// fires anything and after each timer it fires, it waits until the code
// under test has settled (see the package documentation), so each timer
// due on the way fires at its own deadline, timers armed by the woken code
// inside the window fire in the same call, and when Step returns the code
// has caught up with the clock. A d of 0 only settles. Step(time.Hour)
// runs a whole ladder of retries that ends within the hour.
//
// On failure Step fails the test at once through the t given to [New],
// with Fatalf, naming the line of the test that called it: the code did
// not settle within the default real-time budget ([DefaultSettleBudget],
// cut to a quarter of the time the test has left; inside a synctest
// bubble the bubble itself bounds it), or more timers came due than the
// loop limit allows. A negative d fails the test too. [Clock.AdvanceAndDrain]
// is the same advance, returning the error.
//
//	go client.Run(ctx, clk)
//	clk.Step(499 * time.Millisecond) // one attempt so far
//	clk.Step(time.Millisecond)       // the retry, at exactly 500ms
//
// Step must be called from the goroutine running the test, like
// t.Fatalf; from any other goroutine use AdvanceAndDrain and handle its
// error.
func (c *Clock) Step(d time.Duration) {
	c.t.Helper()
	if err := c.advanceAndDrain(context.Background(), "Step", d); err != nil {
		c.t.Fatalf("%v", err)
	}
}

func (c *Clock) advanceAndDrain(ctx context.Context, name string, d time.Duration) error {
	op := name + "(" + schedfmt.Duration(d) + ")"
	if d < 0 {
		return fmt.Errorf("fakeclock: %s: negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)", op)
	}
	if err := c.begin(op); err != nil {
		return err
	}
	defer c.advancing.Store(false)
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	if err := c.settle.settle(ctx, op); err != nil {
		return err
	}
	return c.fireDue(ctx, op, end, true)
}

// fireDue is the loop of every advance. It fires, in deadline order, each
// timer due by end, Now equal to the timer's deadline while it fires, and
// finally sets Now to end. With
// drain true it settles the code under test after each firing, returning
// the settle's error; with drain false (Advance) it keeps the clock locked
// except while a context ends, so the code it wakes arms its next timers
// after it returns, as with clockwork.
func (c *Clock) fireDue(ctx context.Context, op string, end time.Time, drain bool) error {
	// The kinds and sites of the first and the last timers fired, for the
	// loop limit's message: at most 8 of each.
	var buf [16]firing
	fired := buf[:0]
	c.mu.Lock()
	for n := 0; ; n++ {
		t := c.timers.peek()
		if t == nil || t.when.After(end) {
			if end.After(c.now) {
				c.now = end
			}
			c.mu.Unlock()
			return nil
		}
		if n >= c.opts.loopLimit {
			pending := c.pendingLocked()
			c.mu.Unlock()
			return loopLimitError("fakeclock: "+op, c.opts.loopLimit, fired, pending)
		}
		c.timers.pop()
		if t.when.After(c.now) {
			c.now = t.when
		}
		if f := (firing{t.kind, t.site}); (len(fired) < 8 || n >= c.opts.loopLimit-8) && !slices.ContainsFunc(fired, f.equal) {
			fired = append(fired, f)
		}
		action := c.fireLocked(t, end)
		if action == nil && !drain {
			continue
		}
		c.mu.Unlock()
		run(action)
		if drain {
			if err := c.settle.settle(ctx, op); err != nil {
				return err
			}
		}
		c.mu.Lock()
	}
}

// firing is what the loop limit's message says of a timer that fired.
type firing struct {
	kind Kind
	site site
}

func (f firing) equal(o firing) bool { return f.kind == o.kind && f.site.equal(o.site) }

func loopLimitError(op string, limit int, fired []firing, pending []Waiter) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: loop limit %d exceeded: timers keep coming due (a zero-delay timer re-armed forever, or a live ticker)", op, limit)
	b.WriteString("\nfired:")
	var seen []string
	for _, f := range fired {
		s := f.kind.String() + " armed at " + f.site.String()
		if !slices.Contains(seen, s) {
			seen = append(seen, s)
			b.WriteString("\n    " + s)
		}
	}
	writePending(&b, pending)
	return &report{msg: b.String(), causes: []error{ErrLoopLimit}}
}

// report is an error whose text is a whole report, headed by the advance
// that failed, and which [errors.Is] matches to each of its causes, whose
// own text it need not repeat.
type report struct {
	msg    string
	causes []error
}

func (e *report) Error() string   { return e.msg }
func (e *report) Unwrap() []error { return e.causes }

func writePending(b *strings.Builder, pending []Waiter) {
	if len(pending) == 0 {
		b.WriteString("\npending timers: none")
		return
	}
	b.WriteString("\npending timers:")
	for _, w := range pending {
		b.WriteString("\n    " + w.String())
	}
}

// Set jumps the clock's wall time to t without firing anything, like
// Vitest's vi.setSystemTime: every pending timer keeps the time it had left,
// so its deadline moves by the same amount as Now. Set may move the clock
// backwards (as an NTP correction or a suspended laptop can); code that
// measures with Since across a backward jump sees a negative duration, as it
// would with the wall clock. Deadlines of fake-time contexts move with their
// timers.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	shift := t.Sub(c.now)
	c.now = t
	c.timers.shift(shift)
	for tm := range c.timers.all {
		if tm.ctx != nil {
			tm.ctx.Shift(shift)
		}
	}
}

// WaitForTimers blocks until at least n timers, tickers, sleeps or context
// deadlines are pending on the clock, or fails when ctx ends. Without a
// deadline on ctx it gives up after the default settle budget (outside a
// bubble) or when the bubble is idle (inside one).
func (c *Clock) WaitForTimers(ctx context.Context, n int) error {
	budget := c.settle.budget(ctx)
	defer budget.stop()
	for {
		c.mu.Lock()
		k := c.timers.Len()
		if c.changed == nil && k < n {
			c.changed = make(chan struct{})
		}
		ch := c.changed
		var pending []Waiter
		if k < n {
			pending = c.pendingLocked()
		}
		c.mu.Unlock()
		if k >= n {
			return nil
		}
		var cause error
		why := ""
		select {
		case <-ch:
			continue
		case <-ctx.Done():
			cause = ctx.Err()
			why = cause.Error()
		case <-budget.c:
			cause = ErrNotSettled
			why = "no timer was armed within the settle budget"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "fakeclock: WaitForTimers(%d) = %d pending, want >= %d: %s", n, k, n, why)
		writePending(&b, pending)
		return &report{msg: b.String(), causes: []error{cause}}
	}
}

// ErrClosed is the cause of the fake-time contexts that [Clock.Close] ends.
var ErrClosed = errors.New("fakeclock: clock closed")

// Close releases everything parked on the clock so that the code under test
// can exit: sleeping goroutines return, pending After and NewTimer channels
// receive the current time, tickers and AfterFunc timers stop without
// firing, and fake-time contexts end with [context.Canceled] and cause
// [ErrClosed]. From then on the clock parks nobody: Sleep returns at once,
// After, NewTimer and context deadlines fire at once, and tickers and
// AfterFunc timers never fire. Close is idempotent; the test's Cleanup
// calls it.
func (c *Clock) Close() {
	c.stopWatch()
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	var ctxs []*deadlineCtx
	for c.timers.Len() > 0 {
		t := c.timers.pop()
		switch {
		case t.ctx != nil:
			ctxs = append(ctxs, t.ctx)
		case t.sends() && t.period == 0:
			t.send(c.now)
		}
	}
	c.mu.Unlock()
	for _, x := range ctxs {
		x.End(context.Canceled, ErrClosed)
	}
}
