package fakeclock_test

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
)

// The settle's scope: every shape of test below must settle correctly
// outside a bubble, whichever goroutine made the clock, advances it or runs
// the code under test.

// slowLadder is ladder, but the woken loop yields many times before it
// records its attempt, so that a settle that returns before the woken code
// has run is caught, not missed by luck.
func slowLadder(clk *fakeclock.Clock, rec *attempts, delays ...time.Duration) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		defer close(done)
		runLadder(clk, rec, delays...)
	}()
	return done
}

// runLadder makes an attempt, then sleeps each delay on clk before the
// next one, yielding before each record.
func runLadder(clk *fakeclock.Clock, rec *attempts, delays ...time.Duration) {
	start := clk.Now()
	yield()
	rec.add(0)
	for _, d := range delays {
		clk.Sleep(d)
		yield()
		rec.add(clk.Since(start))
	}
}

// yield yields to the scheduler many times: long enough that a check made
// as soon as a settle returns early sees the woken code unfinished.
func yield() {
	for range 200 {
		runtime.Gosched()
	}
}

// TestScopeClockMadeOnExitedGoroutine: the clock is made by a helper
// goroutine that has exited by the time the test starts the code and
// advances.
func TestScopeClockMadeOnExitedGoroutine(t *testing.T) {
	made := make(chan *fakeclock.Clock)
	go func() { made <- fakeclock.New(t) }()
	clk := <-made
	rec := &attempts{}
	done := slowLadder(clk, rec, 500*ms, 1000*ms)
	checkLadder(t, clk, rec, done, seedSteps...)
}

// TestScopeAdvanceFromAnotherGoroutine: the test's goroutine makes the
// clock; another goroutine starts the code and advances.
func TestScopeAdvanceFromAnotherGoroutine(t *testing.T) {
	clk := fakeclock.New(t)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		rec := &attempts{}
		done := slowLadder(clk, rec, 500*ms, 1000*ms)
		checkLadder(t, clk, rec, done, seedSteps...)
	}()
	<-finished
}

// TestScopeTestMainPool: the code under test runs on a worker pool that
// TestMain started before any test.
func TestScopeTestMainPool(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := make(chan struct{})
	pool <- func() {
		defer close(done)
		runLadder(clk, rec, 500*ms, 1000*ms)
	}
	checkLadder(t, clk, rec, done, seedSteps...)
}

// pool is a worker pool started by TestMain (see main_test.go).
var pool = make(chan func())

// startPool starts n workers that run the functions sent on pool, and
// returns a function that stops them and waits for them to exit.
func startPool(n int) (stop func()) {
	var wg sync.WaitGroup
	quit := make(chan struct{})
	for range n {
		wg.Go(func() {
			for {
				select {
				case f := <-pool:
					f()
				case <-quit:
					return
				}
			}
		})
	}
	return func() {
		close(quit)
		wg.Wait()
	}
}

// TestScopeSignalNotify: once signal.Notify has been called, the runtime
// keeps a goroutine in a system call for the life of the process
// (os/signal.signal_recv). It cannot be the code under test and must not
// keep any later settle from finishing.
func TestScopeSignalNotify(t *testing.T) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2)
	defer signal.Stop(c)
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := slowLadder(clk, rec, 500*ms, 1000*ms)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	for _, s := range seedSteps {
		if err := clk.AdvanceAndDrain(ctx, s.d); err != nil {
			t.Fatalf("AdvanceAndDrain(%v) = %v, want nil", s.d, err)
		}
		if got := rec.count(); got != s.want {
			t.Fatalf("after AdvanceAndDrain(%v): %d attempts, want %d", s.d, got, s.want)
		}
	}
	<-done
}

// TestScopeParallelSpinner: a parallel test whose goroutines never block
// does not hold up another test's settle.
func TestScopeParallelSpinner(t *testing.T) {
	if f := flag.Lookup("test.parallel"); f == nil || f.Value.String() == "1" {
		t.Skip("needs two parallel tests running at once (-parallel >= 2); TestDrainCPUHogs covers a running subtest's spinning goroutines")
	}
	spinning, done := make(chan struct{}), make(chan struct{})
	t.Run("group", func(t *testing.T) {
		t.Run("spinner", func(t *testing.T) {
			t.Parallel()
			hog(1, spinning, done)
		})
		t.Run("ladder", func(t *testing.T) {
			t.Parallel()
			defer close(done)
			<-spinning
			clk := fakeclock.New(t)
			rec := &attempts{}
			ladderDone := ladder(clk, rec, 500*ms, 1000*ms)
			checkLadder(t, clk, rec, ladderDone, seedSteps...)
		})
	})
}
