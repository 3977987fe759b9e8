package clockctx_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

var errBudget = errors.New("retry budget spent")

var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// maker makes a context that ends 1s after now with one of the four
// functions; cause is what context.Cause reports once it has.
type maker struct {
	name  string
	make  func(parent context.Context, clk clockwork.Clock, now time.Time) (context.Context, context.CancelFunc)
	cause error
}

var makers = []maker{
	{"WithTimeout", func(p context.Context, clk clockwork.Clock, _ time.Time) (context.Context, context.CancelFunc) {
		return clockctx.WithTimeout(p, clk, time.Second)
	}, context.DeadlineExceeded},
	{"WithTimeoutCause", func(p context.Context, clk clockwork.Clock, _ time.Time) (context.Context, context.CancelFunc) {
		return clockctx.WithTimeoutCause(p, clk, time.Second, errBudget)
	}, errBudget},
	{"WithDeadline", func(p context.Context, clk clockwork.Clock, now time.Time) (context.Context, context.CancelFunc) {
		return clockctx.WithDeadline(p, clk, now.Add(time.Second))
	}, context.DeadlineExceeded},
	{"WithDeadlineCause", func(p context.Context, clk clockwork.Clock, now time.Time) (context.Context, context.CancelFunc) {
		return clockctx.WithDeadlineCause(p, clk, now.Add(time.Second), errBudget)
	}, errBudget},
}

// fakeClocks are the fake clocks whose time the contexts follow, each with
// an advance that returns once what the advance fired has run.
var fakeClocks = []struct {
	name string
	new  func(t *testing.T) (clockwork.Clock, func(t *testing.T, d time.Duration))
}{
	{"fakeclock.Clock", func(t *testing.T) (clockwork.Clock, func(*testing.T, time.Duration)) {
		clk := fakeclock.New(t)
		return clk, func(t *testing.T, d time.Duration) {
			if err := clk.AdvanceAndDrain(t.Context(), d); err != nil {
				t.Fatal(err)
			}
		}
	}},
	{"clockwork.FakeClock", func(*testing.T) (clockwork.Clock, func(*testing.T, time.Duration)) {
		fc := clockwork.NewFakeClockAt(epoch)
		return fc, func(_ *testing.T, d time.Duration) { fc.Advance(d) }
	}},
}

// TestFakeTime: on a fake clock, each function's context ends when the
// clock reaches the deadline, not in real time, with the right error and
// cause, and so do contexts derived from it.
func TestFakeTime(t *testing.T) {
	for _, fc := range fakeClocks {
		for _, m := range makers {
			t.Run(fc.name+"/"+m.name, func(t *testing.T) {
				clk, advance := fc.new(t)
				ctx, cancel := m.make(t.Context(), clk, clk.Now())
				defer cancel()
				child, cancelChild := context.WithCancel(ctx)
				defer cancelChild()
				if d, ok := ctx.Deadline(); !ok || !d.Equal(epoch.Add(time.Second)) {
					t.Errorf("Deadline() = %v, %v, want %v, true", d, ok, epoch.Add(time.Second))
				}
				if err := ctx.Err(); err != nil { // must not block
					t.Errorf("Err() at 0s = %v, want nil", err)
				}
				advance(t, 999*time.Millisecond)
				if err := ctx.Err(); err != nil {
					t.Errorf("Err() at 999ms = %v, want nil", err)
				}
				advance(t, time.Millisecond)
				<-child.Done() // a clockwork.FakeClock runs AfterFunc in a goroutine
				if err, cause := ctx.Err(), context.Cause(ctx); err != context.DeadlineExceeded || cause != m.cause {
					t.Errorf("at 1s: Err() = %v, Cause() = %v, want %v, %v", err, cause, context.DeadlineExceeded, m.cause)
				}
				if err, cause := child.Err(), context.Cause(child); err != context.DeadlineExceeded || cause != m.cause {
					t.Errorf("derived context at 1s: Err() = %v, Cause() = %v, want %v, %v", err, cause, context.DeadlineExceeded, m.cause)
				}
			})
		}
	}
}

// TestRealTime: any other clock, and a nil one, gets the context package's
// context, on real time.
func TestRealTime(t *testing.T) {
	for _, c := range []struct {
		name string
		clk  clockwork.Clock
	}{{"real clock", clockwork.NewRealClock()}, {"nil clock", nil}} {
		clk := c.clk
		for _, m := range makers {
			t.Run(c.name+"/"+m.name, func(t *testing.T) {
				before := time.Now()
				ctx, cancel := m.make(t.Context(), clk, before)
				defer cancel()
				after := time.Now()
				d, ok := ctx.Deadline()
				if !ok || d.Before(before.Add(time.Second)) || d.After(after.Add(time.Second)) {
					t.Errorf("Deadline() = %v, %v, want 1s after a real time in [%v, %v]", d, ok, before, after)
				}
				if err := ctx.Err(); err != nil {
					t.Errorf("Err() = %v, want nil", err)
				}
			})
		}
	}
}

// deadlineClock is a DeadlineClock that records what it was asked for.
type deadlineClock struct {
	clockwork.Clock
	calls []deadlineCall
}

type deadlineCall struct {
	parent context.Context
	d      time.Time
	cause  error
}

type markerKey struct{}

func (c *deadlineClock) WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	c.calls = append(c.calls, deadlineCall{parent, d, cause})
	return context.WithCancel(context.WithValue(parent, markerKey{}, "made by the clock"))
}

// TestDeadlineClock: a clock that implements DeadlineClock makes every
// context itself, asked for the deadline on its own time and the cause
// (nil for the forms without one).
func TestDeadlineClock(t *testing.T) {
	var _ clockctx.DeadlineClock = (*fakeclock.Clock)(nil)
	wantCause := map[string]error{"WithTimeout": nil, "WithTimeoutCause": errBudget, "WithDeadline": nil, "WithDeadlineCause": errBudget}
	for _, m := range makers {
		t.Run(m.name, func(t *testing.T) {
			clk := &deadlineClock{Clock: clockwork.NewFakeClockAt(epoch)}
			ctx, cancel := m.make(t.Context(), clk, epoch)
			defer cancel()
			if got := ctx.Value(markerKey{}); got != "made by the clock" {
				t.Errorf("%s(ctx, clk, …) did not return the clock's context (marker = %v)", m.name, got)
			}
			want := []deadlineCall{{t.Context(), epoch.Add(time.Second), wantCause[m.name]}}
			if len(clk.calls) != 1 || clk.calls[0] != want[0] {
				t.Errorf("%s(ctx, clk, …) called WithDeadlineCause with %v, want %v", m.name, clk.calls, want)
			}
		})
	}
}

// TestClockworkContext covers the context made for a *clockwork.FakeClock
// beyond its deadline: cancel, its parent, and deadlines already passed.
func TestClockworkContext(t *testing.T) {
	t.Run("cancel", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		ctx, cancel := clockctx.WithTimeoutCause(t.Context(), fc, time.Second, errBudget)
		child, cancelChild := context.WithCancel(ctx)
		defer cancelChild()
		cancel()
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.Canceled || cause != context.Canceled {
			t.Errorf("after cancel: Err() = %v, Cause() = %v, want context.Canceled twice", err, cause)
		}
		if err := child.Err(); err != context.Canceled { // synchronous
			t.Errorf("derived context after cancel: Err() = %v, want context.Canceled", err)
		}
		canceled, stop := context.WithCancel(t.Context())
		stop()
		if err := fc.BlockUntilContext(canceled, 1); err == nil { // at once when 1 or more are pending
			t.Errorf("the deadline's timer is still pending on the FakeClock after cancel")
		}
		fc.Advance(time.Second)
		if err := ctx.Err(); err != context.Canceled {
			t.Errorf("Err() after cancel and the deadline = %v, want context.Canceled", err)
		}
	})
	t.Run("parent canceled", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		parent, cancelParent := context.WithCancelCause(t.Context())
		ctx, cancel := clockctx.WithTimeout(parent, fc, time.Hour)
		defer cancel()
		cancelParent(errBudget)
		<-ctx.Done()
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.Canceled || cause != errBudget {
			t.Errorf("after the parent's cancel: Err() = %v, Cause() = %v, want context.Canceled, %v", err, cause, errBudget)
		}
	})
	t.Run("parent ended", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		parent, cancelParent := context.WithCancelCause(t.Context())
		cancelParent(errBudget)
		ctx, cancel := clockctx.WithTimeout(parent, fc, time.Hour)
		defer cancel()
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.Canceled || cause != errBudget {
			t.Errorf("under an ended parent: Err() = %v, Cause() = %v, want context.Canceled, %v at once", err, cause, errBudget)
		}
	})
	t.Run("parent ends first", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		parent, cancelParent := clockctx.WithTimeout(t.Context(), fc, time.Second)
		defer cancelParent()
		ctx, cancel := clockctx.WithTimeoutCause(parent, fc, time.Hour, errBudget)
		defer cancel()
		if d, _ := ctx.Deadline(); !d.Equal(epoch.Add(time.Second)) {
			t.Errorf("Deadline() under an earlier parent = %v, want the parent's %v", d, epoch.Add(time.Second))
		}
		fc.Advance(time.Second)
		<-ctx.Done()
		if err := ctx.Err(); err != context.DeadlineExceeded {
			t.Errorf("Err() at the parent's deadline = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("deadline passed", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		ctx, cancel := clockctx.WithDeadlineCause(t.Context(), fc, epoch.Add(-time.Second), errBudget)
		defer cancel()
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.DeadlineExceeded || cause != errBudget {
			t.Errorf("deadline passed: Err() = %v, Cause() = %v, want %v, %v at once", err, cause, context.DeadlineExceeded, errBudget)
		}
		child, cancelChild := context.WithCancel(ctx)
		defer cancelChild()
		<-child.Done() // attached after the end: in a goroutine of its own
		if err := child.Err(); err != context.DeadlineExceeded {
			t.Errorf("context derived after the deadline: Err() = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("values", func(t *testing.T) {
		fc := clockwork.NewFakeClockAt(epoch)
		ctx, cancel := clockctx.WithTimeout(context.WithValue(t.Context(), markerKey{}, "v"), fc, time.Second)
		defer cancel()
		if got := ctx.Value(markerKey{}); got != "v" {
			t.Errorf("Value(key) = %v, want the parent's %q", got, "v")
		}
		if got := context.Cause(ctx); got != nil {
			t.Errorf("Cause() before the deadline = %v, want nil", got)
		}
	})
}

func TestNilParent(t *testing.T) {
	for _, m := range makers {
		t.Run(m.name, func(t *testing.T) {
			want := "clockctx: " + m.name + ": nil parent context"
			defer func() {
				if got := recover(); got != want {
					t.Errorf("%s(nil, clk, …) panicked with %v, want %q", m.name, got, want)
				}
			}()
			m.make(nil, clockwork.NewFakeClockAt(epoch), epoch)
		})
	}
}
