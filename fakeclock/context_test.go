package fakeclock_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

var errBudget = errors.New("retry budget spent")

func TestWithTimeout(t *testing.T) {
	for _, tc := range []struct {
		name      string
		make      func(clk *fakeclock.Clock, parent context.Context) (context.Context, context.CancelFunc)
		wantCause error
	}{
		{"method", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clk.WithTimeout(p, time.Second)
		}, context.DeadlineExceeded},
		{"method with cause", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clk.WithTimeoutCause(p, time.Second, errBudget)
		}, errBudget},
		{"deadline method", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clk.WithDeadline(p, fakeclock.Epoch.Add(time.Second))
		}, context.DeadlineExceeded},
		{"deadline method with cause", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clk.WithDeadlineCause(p, fakeclock.Epoch.Add(time.Second), errBudget)
		}, errBudget},
		{"clockctx", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clockctx.WithTimeout(p, clk, time.Second)
		}, context.DeadlineExceeded},
		{"clockctx with cause", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clockctx.WithTimeoutCause(p, clk, time.Second, errBudget)
		}, errBudget},
		{"clockctx deadline", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clockctx.WithDeadline(p, clk, fakeclock.Epoch.Add(time.Second))
		}, context.DeadlineExceeded},
		{"clockctx deadline with cause", func(clk *fakeclock.Clock, p context.Context) (context.Context, context.CancelFunc) {
			return clockctx.WithDeadlineCause(p, clk, fakeclock.Epoch.Add(time.Second), errBudget)
		}, errBudget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			ctx, cancel := tc.make(clk, t.Context())
			defer cancel()
			child, cancelChild := context.WithCancel(ctx)
			defer cancelChild()
			ran := make(chan struct{})
			context.AfterFunc(ctx, func() { close(ran) })
			if d, ok := ctx.Deadline(); !ok || !d.Equal(fakeclock.Epoch.Add(time.Second)) {
				t.Errorf("Deadline() = %v, %v, want %v, true", d, ok, fakeclock.Epoch.Add(time.Second))
			}
			if err := ctx.Err(); err != nil { // must not block
				t.Errorf("Err() before the deadline = %v, want nil", err)
			}
			if err := clk.AdvanceAndDrain(t.Context(), 999*ms); err != nil {
				t.Fatal(err)
			}
			if err := ctx.Err(); err != nil {
				t.Errorf("Err() at 999ms = %v, want nil", err)
			}
			if err := clk.AdvanceAndDrain(t.Context(), 1*ms); err != nil {
				t.Fatal(err)
			}
			if err := ctx.Err(); err != context.DeadlineExceeded {
				t.Errorf("Err() at 1s = %v, want context.DeadlineExceeded", err)
			}
			if err := child.Err(); err != context.DeadlineExceeded {
				t.Errorf("derived context's Err() at 1s = %v, want context.DeadlineExceeded", err)
			}
			if got := context.Cause(ctx); got != tc.wantCause {
				t.Errorf("Cause() = %v, want %v", got, tc.wantCause)
			}
			if got := context.Cause(child); got != tc.wantCause {
				t.Errorf("derived context's Cause() = %v, want %v", got, tc.wantCause)
			}
			<-ran
		})
	}
}

func TestWithTimeoutCancel(t *testing.T) {
	clk := fakeclock.New(t)
	ctx, cancel := clk.WithTimeout(t.Context(), time.Second)
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	cancel()
	if err := ctx.Err(); err != context.Canceled {
		t.Errorf("Err() after cancel = %v, want context.Canceled", err)
	}
	if err := child.Err(); err != context.Canceled {
		t.Errorf("derived Err() after cancel = %v, want context.Canceled", err)
	}
	if got := context.Cause(ctx); got != context.Canceled {
		t.Errorf("Cause() after cancel = %v, want context.Canceled", got)
	}
	if got := clk.Pending(); len(got) != 0 {
		t.Errorf("Pending() after cancel = %v, want none (the deadline's timer is stopped)", got)
	}
}

func TestWithTimeoutParent(t *testing.T) {
	clk := fakeclock.New(t)
	t.Run("standard parent canceled", func(t *testing.T) {
		parent, cancelParent := context.WithCancelCause(t.Context())
		ctx, cancel := clk.WithTimeout(parent, time.Hour)
		defer cancel()
		cancelParent(errBudget)
		// The standard library's cancellation arrives through
		// context.AfterFunc's goroutine: settle.
		if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.Canceled || cause != errBudget {
			t.Errorf("after the parent's cancel: Err() = %v, Cause() = %v, want context.Canceled, %v", err, cause, errBudget)
		}
	})
	t.Run("fake parent expires", func(t *testing.T) {
		parent, cancelParent := clk.WithTimeoutCause(t.Context(), time.Second, errBudget)
		defer cancelParent()
		ctx, cancel := clk.WithTimeout(parent, time.Hour)
		defer cancel()
		if d, _ := ctx.Deadline(); d.Sub(clk.Now()) != time.Second {
			t.Errorf("Deadline() under an earlier parent = now+%v, want the parent's (now+1s)", d.Sub(clk.Now()))
		}
		if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
			t.Fatal(err)
		}
		if err, cause := ctx.Err(), context.Cause(ctx); err != context.DeadlineExceeded || cause != errBudget {
			t.Errorf("Err() = %v, Cause() = %v, want context.DeadlineExceeded, %v", err, cause, errBudget)
		}
	})
	t.Run("fake parent with a later deadline", func(t *testing.T) {
		parent, cancelParent := clk.WithTimeout(t.Context(), time.Hour)
		ctx, cancel := clk.WithTimeout(parent, time.Second)
		defer cancel()
		cancelParent()
		if err := ctx.Err(); err != context.Canceled { // synchronous
			t.Errorf("Err() right after the fake parent's cancel = %v, want context.Canceled", err)
		}
	})
	t.Run("already expired", func(t *testing.T) {
		ctx, cancel := clk.WithDeadline(t.Context(), clk.Now().Add(-time.Second))
		defer cancel()
		if err := ctx.Err(); err != context.DeadlineExceeded {
			t.Errorf("Err() of a context whose deadline passed = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("zero deadline", func(t *testing.T) {
		ctx, cancel := clk.WithDeadline(t.Context(), time.Time{})
		defer cancel()
		if d, ok := ctx.Deadline(); !d.IsZero() || !ok || ctx.Err() != context.DeadlineExceeded {
			t.Errorf("WithDeadline(ctx, time.Time{}): Deadline() = %v, %v, Err() = %v, want the zero time, true, context.DeadlineExceeded", d, ok, ctx.Err())
		}
	})
}

// TestWithTimeoutLoop: a "for ctx.Err() == nil" retry loop on a fake-time
// context ends under AdvanceAndDrain.
func TestWithTimeoutLoop(t *testing.T) {
	clk := fakeclock.New(t)
	ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 2*time.Second)
	defer cancel()
	rec := &attempts{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := clk.Now()
		for ctx.Err() == nil {
			rec.add(clk.Since(start))
			select {
			case <-ctx.Done():
			case <-clk.After(700 * ms):
			}
		}
	}()
	if err := clk.AdvanceAndDrain(t.Context(), time.Hour); err != nil {
		t.Fatal(err)
	}
	<-done
	if got := rec.count(); got != 3 {
		t.Errorf("attempts before the 2s deadline: %d (%v), want 3", got, rec.get())
	}
}

func TestWithTimeoutEndedParent(t *testing.T) {
	clk := fakeclock.New(t)
	parent, cancelParent := context.WithCancelCause(t.Context())
	cancelParent(errBudget)
	ctx, cancel := clk.WithTimeout(parent, time.Hour)
	defer cancel()
	if err, cause := ctx.Err(), context.Cause(ctx); err != context.Canceled || cause != errBudget {
		t.Errorf("under an ended parent: Err() = %v, Cause() = %v, want context.Canceled, %v at once", err, cause, errBudget)
	}
	if got := clk.Pending(); len(got) != 0 {
		t.Errorf("Pending() = %v, want none", got)
	}
}

// TestContextSite: Pending names the line of the user's code that made a
// context, through clockctx as through the methods.
func TestContextSite(t *testing.T) {
	clk := fakeclock.New(t)
	var want []string
	for _, made := range []madeCtx{
		withSite(clockctx.WithTimeout(t.Context(), clk, time.Second)),
		withSite(clockctx.WithDeadlineCause(t.Context(), clk, fakeclock.Epoch.Add(2*time.Second), errBudget)),
		withSite(clk.WithTimeout(t.Context(), 3*time.Second)),
	} {
		defer made.cancel()
		want = append(want, made.site)
	}
	var got []string
	for _, w := range clk.Pending() {
		got = append(got, w.Site)
	}
	if !slices.Equal(got, want) {
		t.Errorf("sites of the pending contexts = %q, want %q", got, want)
	}
}

// madeCtx is a context, its cancel function and the "file.go:42" of the
// line that made them.
type madeCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
	site   string
}

func withSite(ctx context.Context, cancel context.CancelFunc) madeCtx {
	_, file, line, _ := runtime.Caller(1)
	return madeCtx{ctx, cancel, filepath.Base(file) + ":" + strconv.Itoa(line)}
}

func TestWithTimeoutNilParent(t *testing.T) {
	clk := fakeclock.New(t)
	for _, tc := range []struct {
		method string
		make   func(context.Context)
	}{
		{"WithTimeout", func(p context.Context) { clk.WithTimeout(p, time.Second) }},
		{"WithTimeoutCause", func(p context.Context) { clk.WithTimeoutCause(p, time.Second, errBudget) }},
		{"WithDeadline", func(p context.Context) { clk.WithDeadline(p, fakeclock.Epoch) }},
		{"WithDeadlineCause", func(p context.Context) { clk.WithDeadlineCause(p, fakeclock.Epoch, errBudget) }},
	} {
		t.Run(tc.method, func(t *testing.T) {
			want := "fakeclock: Clock." + tc.method + ": nil parent context"
			defer func() {
				if got := recover(); got != want {
					t.Errorf("Clock.%s(nil, …) panicked with %v, want %q", tc.method, got, want)
				}
			}()
			tc.make(nil)
		})
	}
}

// TestContextString: a fake-time context prints its deadline as an offset
// from the clock's start, one that Set moved included.
func TestContextString(t *testing.T) {
	clk := fakeclock.New(t)
	ctx, cancel := clk.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if got, want := fmt.Sprint(ctx), "fakeclock.Clock.WithDeadline(+1s)"; got != want {
		t.Errorf("fmt.Sprint(ctx) = %q, want %q", got, want)
	}
	clk.Set(fakeclock.Epoch.Add(time.Hour))
	if got, want := fmt.Sprint(ctx), "fakeclock.Clock.WithDeadline(+1h0m1s)"; got != want {
		t.Errorf("fmt.Sprint(ctx) after Set(+1h) = %q, want %q", got, want)
	}
}
