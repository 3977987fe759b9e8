package settle_test

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/settle"
)

// far is a settle's real-time limit that a test never reaches: its
// context's deadline ends the settle first.
var far = time.Now().Add(time.Hour)

// TestSettleIdle: with every goroutine of the test parked on a channel,
// Settle returns nil.
func TestSettleIdle(t *testing.T) {
	_, stop := park()
	defer stop()
	o := settle.NewOracle()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := o.Settle(ctx, far); err != nil {
		t.Fatalf("Settle = %v, want nil", err)
	}
}

// TestSettleSyscallIsBusy: a goroutine of the test blocked in a system
// call keeps Settle from returning, though the scheduler's counters show
// nothing running or waiting to run (the oracle reads them only to decide
// when to look). The settle fails at its context's deadline, naming it.
func TestSettleSyscallIsBusy(t *testing.T) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil { // blocking descriptors
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	o := settle.NewOracle()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var b [1]byte
		syscall.Read(fds[0], b[:])
	}()
	defer func() {
		syscall.Write(fds[1], []byte{0})
		<-done
	}()
	id := waitState(t, o, "syscall")
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	err := o.Settle(ctx, far)
	var u *settle.Unsettled
	if !errors.As(err, &u) || !errors.Is(u.Cause, context.DeadlineExceeded) {
		t.Fatalf("Settle = %v, want an *Unsettled at the context's deadline", err)
	}
	// The context's own deadline runs its cancel on a goroutine of the
	// runtime's timers; on a loaded machine the last look may still see it
	// running, and then rightly names it too.
	named := false
	for _, g := range u.Busy {
		switch {
		case g.ID == id:
			named = true
		case !bytes.Contains(g.Text, []byte("context.WithDeadlineCause")):
			t.Errorf("goroutine %d named busy, want only %d in syscall.Read (and ctx's own deadline callback):\n%s", g.ID, id, g.Text)
		}
	}
	if !named || !strings.Contains(err.Error(), "syscall.Read") {
		t.Errorf("Settle = %q, want goroutine %d in syscall.Read named busy", err, id)
	}
}

// waitState yields until a goroutine of the test started after the
// oracle was made is in state, and returns its number.
func waitState(t *testing.T, o *settle.Oracle, state string) int64 {
	t.Helper()
	for range 100000 {
		v := o.Look()
		for i, g := range v.Goroutines {
			if v.In[i] && !o.Existed(g.ID) && g.State == state {
				return g.ID
			}
		}
		time.Sleep(0) // yields, like runtime.Gosched
	}
	t.Fatalf("no goroutine of the test in state %q", state)
	return 0
}

// TestSettleInBubble: called from inside a synctest bubble, Settle refuses
// with ErrInBubble instead of polling against a real-time limit that the
// bubble's clock never reaches. A goroutine burns CPU meanwhile, so that the
// scheduler's counters never show the process quiet (at any GOMAXPROCS: it
// runs, or waits to run): the wait for a quiet moment must not count on
// the time passing either.
func TestSettleInBubble(t *testing.T) {
	o := settle.NewOracle()
	var stop atomic.Bool
	spinning := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		close(spinning)
		for !stop.Load() {
		}
	}()
	defer func() { stop.Store(true); <-done }()
	<-spinning
	// A Settle that never returns spins for ever on its processor: the
	// watchdog, on the real clock, ends the test binary instead.
	watchdog := time.AfterFunc(time.Minute, func() {
		panic("Settle called inside a synctest bubble did not return within a minute: it waits for time to pass on the bubble's clock, which stands still while it polls")
	})
	defer watchdog.Stop()
	synctest.Test(t, func(t *testing.T) {
		if err := o.Settle(t.Context(), time.Now().Add(time.Second)); !errors.Is(err, settle.ErrInBubble) {
			t.Errorf("Settle in a bubble = %v, want ErrInBubble", err)
		}
	})
}

// TestLookSameCountOtherGoroutines: two looks in a row see as many
// goroutines, but not the same ones: two of the test's goroutines exited
// and a running subtest started two in their place (the runtime reuses the
// exited goroutines' slots, so the dumps may list them at the same
// places). The second look works out their origins afresh: they are out of
// scope.
func TestLookSameCountOtherGoroutines(t *testing.T) {
	// The runtime starts its garbage collector's workers, one per
	// processor, at the first collection: one during the test would add
	// goroutines that the first look did not count.
	runtime.GC()
	o := settle.NewOracle()
	a, stopA := park()
	b, stopB := park()
	start, ids := make(chan struct{}), make(chan int64)
	checked := make(chan struct{})
	go func() { // of this test, looking while the subtest runs
		defer close(checked)
		<-ids // the subtest runs
		before := o.Look().Goroutines
		stopA()
		stopB()
		close(start)
		d, e := <-ids, <-ids
		// Wait with raw dumps, which teach the oracle nothing, for as
		// many goroutines as before without a and b; a bounded wait, as
		// the runtime or a goroutine left by an earlier test may change
		// the count for good.
		for limit := time.Now().Add(10 * time.Second); ; {
			_, dump := settle.Snapshot(nil)
			gs := settle.Parse(dump)
			gone := !slices.ContainsFunc(gs, func(g settle.Goroutine) bool { return g.ID == a || g.ID == b })
			if len(gs) == len(before) && gone {
				break
			}
			if time.Now().After(limit) {
				t.Errorf("after 10s the dumps show %d goroutines (a and b gone: %v), want %d as the first look with a and b gone; the last dump:\n%s", len(gs), gone, len(before), dump)
				return
			}
			runtime.Gosched()
		}
		v := o.Look()
		if len(v.Goroutines) != len(before) {
			t.Errorf("the second look saw %d goroutines, want %d as the first", len(v.Goroutines), len(before))
		}
		for i, g := range v.Goroutines {
			if (g.ID == d || g.ID == e) && v.In[i] {
				t.Errorf("goroutine %d of a running subtest is in scope, want out", g.ID)
			}
		}
	}()
	t.Run("other", func(t *testing.T) {
		ids <- 0
		<-start
		d, stopD := park()
		defer stopD()
		e, stopE := park()
		defer stopE()
		ids <- d
		ids <- e
		<-checked
	})
}
