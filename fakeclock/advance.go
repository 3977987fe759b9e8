package fakeclock

import (
	"container/heap"
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

// ErrNoTimers is returned by [Clock.AdvanceToNext] when nothing is pending.
var ErrNoTimers = errors.New("fakeclock: no pending timers")

// Advance moves the clock forward by d the way clockwork's FakeClock does:
// it fires the timers due by now+d in deadline order, with Now equal to each
// timer's deadline while it fires, and then sets Now to now+d. It does not
// wait for the code it wakes: use [Clock.AdvanceAndDrain] for that.
//
// A negative d is a mistake in the test: Advance reports it with Errorf on
// the clock's FixtureT, naming the call site, and does nothing.
func (c *Clock) Advance(d time.Duration) {
	c.t.Helper()
	op := "Advance(" + schedfmt.Duration(d) + ")"
	if d < 0 {
		c.t.Errorf("fakeclock: %s at %s: negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)", op, callers())
		return
	}
	if c.begin(op) != nil {
		c.t.Errorf("fakeclock: %s at %s: %v", op, callers(), errConcurrent)
		return
	}
	defer c.advancing.Store(false)
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	if err := c.fireDue(context.Background(), op, end, true, false); err != nil {
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
	c.zeroFired = 0
	c.mu.Unlock()
	return nil
}

// AdvanceAndDrain is the Go counterpart of Vitest's
// vi.advanceTimersByTimeAsync. It settles the code under test; then, while
// a timer is due by now+d, it sets Now to the earliest such timer's
// deadline, fires it, and settles again, so that timers armed by the woken
// code inside the window fire in the same call, in order. Finally Now is
// now+d. A d of 0 only settles.
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

// Step is [Clock.AdvanceAndDrain] for the goroutine running the test: it
// advances the clock by d, firing each timer due on the way at its own
// deadline and letting the woken code run until it waits again, and on
// failure it fails the test at once through the t given to [New], with
// Fatalf, naming the line of the test that called Step. It takes no context:
// each settle is bounded by the default real-time budget
// ([DefaultSettleBudget], cut to a quarter of the time the test has left),
// or inside a synctest bubble by the bubble itself. A negative d fails the
// test too.
//
//	go client.Run(ctx, clk)
//	clk.Step(499 * time.Millisecond) // one attempt so far
//	clk.Step(time.Millisecond)       // the retry, at exactly 500ms
//
// Step must be called from the goroutine running the test, like
// t.Fatalf; from any other goroutine use AdvanceAndDrain and handle its
// error.
//
// Its name says what a test does with it: one step of the script, after
// which the code under test has caught up with the clock. It is not named
// Must… (in Go, Must means "panics"), nor Require… (those check a value
// given to them), nor Advance (clockwork's Advance, which this Clock also
// has, does not wait for the code it wakes).
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
	return c.drain(ctx, op, end, true)
}

// AdvanceTo is AdvanceAndDrain up to the instant t. A t before Now is an
// error.
func (c *Clock) AdvanceTo(ctx context.Context, t time.Time) error {
	now := c.Now()
	op := "AdvanceTo(" + offset(t.Sub(c.start)) + ")"
	if t.Before(now) {
		return fmt.Errorf("fakeclock: %s: %s is before now (%s), want a later instant", op, t.Format(time.RFC3339Nano), offset(now.Sub(c.start)))
	}
	if err := c.begin(op); err != nil {
		return err
	}
	defer c.advancing.Store(false)
	return c.drain(ctx, op, t, true)
}

// AdvanceToNext settles, then advances to the next deadline on the clock
// and fires everything due at that instant, settling after each, as
// AdvanceAndDrain does. It returns how far the clock moved, or
// [ErrNoTimers] when nothing is pending.
func (c *Clock) AdvanceToNext(ctx context.Context) (time.Duration, error) {
	op := "AdvanceToNext()"
	if err := c.begin(op); err != nil {
		return 0, err
	}
	defer c.advancing.Store(false)
	// Settle first: the code under test may yet arm the next timer.
	if err := c.settle.settle(ctx, op); err != nil {
		return 0, err
	}
	c.mu.Lock()
	start := c.now
	next := c.timers.peek()
	end := start
	if next != nil && next.when.After(start) {
		// (A zero-delay timer cut at the loop limit of an earlier
		// advance is due at the instant it was armed, before now.)
		end = next.when
	}
	c.mu.Unlock()
	if next == nil {
		return 0, ErrNoTimers
	}
	err := c.fireDue(ctx, op, end, true, true)
	return c.Now().Sub(start), err
}

// RunUntilIdle settles, then fires every pending timer in deadline order,
// settling after each and moving Now to each deadline, until nothing is
// pending. A live ticker, or code that keeps re-arming timers, makes it
// fail with "loop limit N exceeded" (see [WithLoopLimit]) and the call sites
// of the timers involved, instead of running forever.
func (c *Clock) RunUntilIdle(ctx context.Context) error {
	op := "RunUntilIdle()"
	if err := c.begin(op); err != nil {
		return err
	}
	defer c.advancing.Store(false)
	return c.drain(ctx, op, time.Time{}, false)
}

// drain settles the code under test, then fires as fireDue does, settling
// after each firing.
func (c *Clock) drain(ctx context.Context, op string, end time.Time, bounded bool) error {
	if err := c.settle.settle(ctx, op); err != nil {
		return err
	}
	return c.fireDue(ctx, op, end, bounded, true)
}

// fireDue is the loop of every advance. It fires, in deadline order, each
// timer due by end (with bounded false, every pending timer), Now equal to
// the timer's deadline while it fires, and finally sets Now to end. With
// drain true it settles the code under test after each firing, returning
// the settle's error; with drain false (Advance) it keeps the clock locked
// except while a context ends, so the code it wakes arms its next timers
// after it returns, as with clockwork.
func (c *Clock) fireDue(ctx context.Context, op string, end time.Time, bounded, drain bool) error {
	// The kinds and sites of the first and the last timers fired, for the
	// loop limit's message: at most 8 of each.
	var buf [16]firing
	fired := buf[:0]
	c.mu.Lock()
	for n := 0; ; n++ {
		t := c.timers.peek()
		if t == nil || (bounded && t.when.After(end)) {
			if bounded && end.After(c.now) {
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
		heap.Pop(&c.timers)
		if t.when.After(c.now) {
			c.now = t.when
		}
		limit := end
		if !bounded {
			limit = t.when
		}
		if f := (firing{t.kind, t.site}); (len(fired) < 8 || n >= c.opts.loopLimit-8) && !slices.Contains(fired, f) {
			fired = append(fired, f)
		}
		action := c.fireLocked(t, limit)
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
	for _, tm := range c.timers {
		tm.when = tm.when.Add(shift)
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
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	close(c.closedCh)
	var ctxs []*deadlineCtx
	for c.timers.Len() > 0 {
		t := heap.Pop(&c.timers).(*timer)
		switch {
		case t.ctx != nil:
			ctxs = append(ctxs, t.ctx)
		case t.sends() && t.period == 0:
			if ch := t.sendCh(); ch != nil {
				select {
				case ch <- c.now:
				default:
				}
			}
		}
	}
	c.mu.Unlock()
	for _, x := range ctxs {
		x.End(context.Canceled, ErrClosed)
	}
}
