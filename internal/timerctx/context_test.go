package timerctx_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/timerctx"
)

var (
	errBudget = errors.New("retry budget spent")
	errParent = errors.New("parent gave up")
	epoch     = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
)

type key struct{}

// TestEnd: each way to end a Context sets Err and Cause, stops the timer
// and runs what derived contexts registered; the first end wins.
func TestEnd(t *testing.T) {
	for _, tc := range []struct {
		name             string
		cause            error // given to New
		end              func(x *timerctx.Context)
		wantErr, wantCau error
	}{
		{"Expire", errBudget, (*timerctx.Context).Expire, context.DeadlineExceeded, errBudget},
		{"Expire without a cause", nil, (*timerctx.Context).Expire, context.DeadlineExceeded, context.DeadlineExceeded},
		{"Cancel", errBudget, (*timerctx.Context).Cancel, context.Canceled, context.Canceled},
		{"End with a cause", errBudget, func(x *timerctx.Context) { x.End(context.Canceled, errParent) }, context.Canceled, errParent},
		{"End without a cause", errBudget, func(x *timerctx.Context) { x.End(context.Canceled, nil) }, context.Canceled, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := timerctx.New(context.Background(), epoch, tc.cause)
			stops := 0
			x.SetTimer(func() bool { stops++; return true })
			x.WatchParent()
			var ran []string
			x.AfterFunc(func() { ran = append(ran, "first") })
			x.AfterFunc(func() { ran = append(ran, "second") })
			child, cancel := context.WithCancel(x)
			defer cancel()
			if err, cause := x.Err(), context.Cause(x); err != nil || cause != nil {
				t.Errorf("before the end: Err() = %v, Cause() = %v, want nil, nil", err, cause)
			}
			tc.end(x)
			select {
			case <-x.Done():
			default:
				t.Errorf("Done() is open after %s", tc.name)
			}
			if err, cause := x.Err(), context.Cause(x); err != tc.wantErr || cause != tc.wantCau {
				t.Errorf("after %s: Err() = %v, Cause() = %v, want %v, %v", tc.name, err, cause, tc.wantErr, tc.wantCau)
			}
			if err, cause := child.Err(), context.Cause(child); err != tc.wantErr || cause != tc.wantCau { // synchronous
				t.Errorf("derived context after %s: Err() = %v, Cause() = %v, want %v, %v", tc.name, err, cause, tc.wantErr, tc.wantCau)
			}
			if want := []string{"first", "second"}; !slices.Equal(ran, want) {
				t.Errorf("after %s, the functions registered ran %q, want %q", tc.name, ran, want)
			}
			x.End(context.Canceled, errParent) // the first end wins
			x.Expire()
			if err, cause := x.Err(), context.Cause(x); err != tc.wantErr || cause != tc.wantCau {
				t.Errorf("after a second end: Err() = %v, Cause() = %v, want %v, %v", err, cause, tc.wantErr, tc.wantCau)
			}
			if want := []string{"first", "second"}; stops != 1 || !slices.Equal(ran, want) {
				t.Errorf("after three ends: timer stopped %d times, functions ran %q, want once and %q", stops, ran, want)
			}
		})
	}
}

// TestSetTimerAfterEnd: a timer handed to a Context that has ended is
// stopped at once.
func TestSetTimerAfterEnd(t *testing.T) {
	x := timerctx.New(context.Background(), epoch, nil)
	x.Cancel()
	stopped := false
	x.SetTimer(func() bool { stopped = true; return true })
	if !stopped {
		t.Error("SetTimer(stop) on an ended Context did not call stop")
	}
}

// TestAfterFunc: a function registered and removed never runs; one
// registered after the end runs in a goroutine of its own.
func TestAfterFunc(t *testing.T) {
	x := timerctx.New(context.Background(), epoch, nil)
	ran := false
	stop := x.AfterFunc(func() { ran = true })
	if !stop() {
		t.Error("stop() of a pending function = false, want true")
	}
	if stop() {
		t.Error("second stop() = true, want false")
	}
	x.Cancel()
	if ran {
		t.Error("a function removed before the end ran")
	}
	late := make(chan struct{})
	stop = x.AfterFunc(func() { close(late) })
	<-late
	if stop() {
		t.Error("stop() of a function registered after the end = true, want false")
	}
	ranFirst := false
	y := timerctx.New(context.Background(), epoch, nil)
	stop = y.AfterFunc(func() { ranFirst = true })
	y.Cancel()
	if removed := stop(); !ranFirst || removed {
		t.Errorf("a function registered before the end: ran = %v, stop() after the end = %v, want true, false", ranFirst, removed)
	}
}

// watchingParent is a parent with an AfterFunc method that counts its
// registrations and their removals.
type watchingParent struct {
	*timerctx.Context
	registered, removed int
}

func (p *watchingParent) AfterFunc(f func()) func() bool {
	p.registered++
	stop := p.Context.AfterFunc(f)
	return func() bool { p.removed++; return stop() }
}

// TestWatchParent: the Context ends with its parent, at once when the
// parent has ended, synchronously under a parent with AfterFunc, and
// stops watching when it ends first.
func TestWatchParent(t *testing.T) {
	t.Run("ended parent", func(t *testing.T) {
		parent, cancel := context.WithCancelCause(context.Background())
		cancel(errParent)
		x := timerctx.New(parent, epoch, errBudget)
		x.WatchParent()
		if err, cause := x.Err(), context.Cause(x); err != context.Canceled || cause != errParent {
			t.Errorf("under an ended parent: Err() = %v, Cause() = %v, want context.Canceled, %v at once", err, cause, errParent)
		}
	})
	t.Run("parent of the context package", func(t *testing.T) {
		parent, cancel := context.WithCancelCause(context.Background())
		x := timerctx.New(parent, epoch, errBudget)
		x.WatchParent()
		cancel(errParent)
		<-x.Done()
		if err, cause := x.Err(), context.Cause(x); err != context.Canceled || cause != errParent {
			t.Errorf("after the parent's cancel: Err() = %v, Cause() = %v, want context.Canceled, %v", err, cause, errParent)
		}
	})
	t.Run("parent with AfterFunc", func(t *testing.T) {
		parent := &watchingParent{Context: timerctx.New(context.Background(), epoch, errBudget)}
		parent.WatchParent()
		x := timerctx.New(parent, epoch.Add(time.Second), nil)
		x.WatchParent()
		parent.Expire()
		if err, cause := x.Err(), context.Cause(x); err != context.DeadlineExceeded || cause != errBudget { // synchronous
			t.Errorf("after the parent expired: Err() = %v, Cause() = %v, want %v, %v at once", err, cause, context.DeadlineExceeded, errBudget)
		}
		if parent.registered != 1 {
			t.Errorf("parent's AfterFunc called %d times, want 1", parent.registered)
		}
	})
	t.Run("ends first", func(t *testing.T) {
		parent := &watchingParent{Context: timerctx.New(context.Background(), epoch, nil)}
		x := timerctx.New(parent, epoch, nil)
		x.WatchParent()
		x.Cancel()
		if parent.registered != 1 || parent.removed != 1 {
			t.Errorf("parent watch: registered %d, removed %d, want 1, 1", parent.registered, parent.removed)
		}
		parent.Cancel()
		if err := x.Err(); err != context.Canceled {
			t.Errorf("Err() after the parent's later end = %v, want its own context.Canceled", err)
		}
	})
	t.Run("parent that never ends", func(t *testing.T) {
		x := timerctx.New(context.Background(), epoch, nil)
		x.WatchParent()
		if err := x.Err(); err != nil {
			t.Errorf("under context.Background(): Err() = %v, want nil", err)
		}
	})
}

// TestDeadlineAndValue: Deadline reports and Shift moves the deadline;
// Value passes the parent's values through.
func TestDeadlineAndValue(t *testing.T) {
	x := timerctx.New(context.WithValue(context.Background(), key{}, "v"), epoch, nil)
	if d, ok := x.Deadline(); !ok || !d.Equal(epoch) {
		t.Errorf("Deadline() = %v, %v, want %v, true", d, ok, epoch)
	}
	x.Shift(-time.Hour)
	if d, _ := x.Deadline(); !d.Equal(epoch.Add(-time.Hour)) {
		t.Errorf("Deadline() after Shift(-1h) = %v, want %v", d, epoch.Add(-time.Hour))
	}
	if got := x.Value(key{}); got != "v" {
		t.Errorf("Value(key) = %v, want the parent's %q", got, "v")
	}
	if got := context.Cause(x); got != nil {
		t.Errorf("Cause() before the end = %v, want nil", got)
	}
}
