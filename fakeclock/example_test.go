package fakeclock_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

var errRateLimited = errors.New("429 Too Many Requests")

// withBackoff is the code under test: it calls op until op succeeds,
// waiting base, then 2*base, ... on clk between attempts, at most
// maxAttempts times, and gives up early when ctx ends.
func withBackoff(ctx context.Context, clk clockwork.Clock, base time.Duration, maxAttempts int, op func() error) error {
	delay := base
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || attempt == maxAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-clk.After(delay):
		}
		delay *= 2
	}
}

// calls records when an operation was called, as offsets on the clock.
type calls struct {
	mu  sync.Mutex
	clk clockwork.Clock
	at  []time.Duration
}

func (c *calls) op(failures int) func() error {
	start := c.clk.Now()
	return func() error {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.at = append(c.at, c.clk.Since(start))
		if len(c.at) <= failures {
			return errRateLimited
		}
		return nil
	}
}

// returned returns what the operation returned: by the time a draining advance
// returns, the code under test has caught up with the clock, so it has
// returned already, or says that it has not.
func returned(result <-chan error) any {
	select {
	case err := <-result:
		return err
	default:
		return "still running: the advance returned before the code caught up with the clock"
	}
}

func (c *calls) times() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.at...)
}

// The test of seed 003, in Go: wait 500ms, then 1000ms, and do not wait
// before the first attempt. The operation is started, not awaited; each
// Step lets it run until it waits on the clock again. (In a test, t is the
// *testing.T; an Example has retrytest.ExampleT.)
func Example() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		c := &calls{clk: clk}
		result := make(chan error, 1)
		op := c.op(2)
		go func() { result <- withBackoff(context.Background(), clk, 500*time.Millisecond, 3, op) }()

		for _, step := range []time.Duration{0, 499 * time.Millisecond, time.Millisecond, 1000 * time.Millisecond} {
			clk.Step(step)
			fmt.Printf("+%v: %d calls\n", step, len(c.times()))
		}
		fmt.Println("result:", returned(result))
		fmt.Println("attempts at:", c.times())
		fmt.Println("the clock's schedule:", retrytest.CheckDelays(clk, 500*time.Millisecond, time.Second))
	})
	// Output:
	// +0s: 1 calls
	// +499ms: 1 calls
	// +1ms: 2 calls
	// +1s: 3 calls
	// result: <nil>
	// attempts at: [0s 500ms 1.5s]
	// the clock's schedule: <nil>
	// PASS
}

// One AdvanceAndDrain drives the whole schedule: the timers the loop arms
// inside the window fire in the same call, each at its own deadline.
func ExampleClock_AdvanceAndDrain() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		ctx := context.Background()
		clk := fakeclock.New(t)
		c := &calls{clk: clk}
		result := make(chan error, 1)
		op := c.op(2)
		go func() { result <- withBackoff(ctx, clk, 500*time.Millisecond, 3, op) }()

		if err := clk.AdvanceAndDrain(ctx, 1500*time.Millisecond); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("result:", returned(result))
		fmt.Println("attempts at:", c.times())
	})
	// Output:
	// result: <nil>
	// attempts at: [0s 500ms 1.5s]
	// PASS
}

// Step fails the test when the code under test does not settle; here a
// negative step is the mistake, reported at the line that made it.
func ExampleClock_Step() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		clk.Step(time.Second)
		fmt.Println("now at", clk.Since(fakeclock.Epoch))
		clk.Step(-time.Second)
		fmt.Println("not reached: Step stops the test")
	})
	// Output:
	// now at 1s
	// fakeclock: Step(-1s): negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)
	// FAIL
}

// An overall deadline on fake time aborts the loop in the middle of a
// wait. Production code makes it with clockctx.WithTimeout and the clock it
// was given; clockwork.WithTimeout would silently use real time here.
func ExampleClock_WithTimeout() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		ctx, cancel := clockctx.WithTimeout(context.Background(), clk, 2*time.Second)
		defer cancel()
		c := &calls{clk: clk}
		result := make(chan error, 1)
		op := c.op(10)
		go func() { result <- withBackoff(ctx, clk, 500*time.Millisecond, 10, op) }()

		clk.Step(time.Hour)
		fmt.Println("result:", returned(result))
		fmt.Println("attempts at:", c.times())
	})
	// Output:
	// result: context deadline exceeded
	// attempts at: [0s 500ms 1.5s]
	// PASS
}

// Pending tells what is still waiting on the clock, and where it was armed.
func ExampleClock_Pending() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		tk := clk.NewTicker(time.Second)
		defer tk.Stop()
		tm := clk.NewTimer(1500 * time.Millisecond)
		defer tm.Stop()
		clk.Advance(2500 * time.Millisecond)
		for _, w := range clk.Pending() {
			fmt.Println(w.Kind, w.Deadline.Sub(fakeclock.Epoch), w.Period)
		}
	})
	// Output:
	// Ticker 3s 1s
	// PASS
}

// Code that re-arms a timer with no delay would keep an advance firing for
// ever: the loop limit stops it, naming the call sites.
func ExampleWithLoopLimit() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t, fakeclock.WithLoopLimit(100), fakeclock.WithoutLeakCheck())
		var again func()
		again = func() { clk.AfterFunc(0, again) } // a bug: no backoff at all
		clk.AfterFunc(time.Second, again)
		err := clk.AdvanceAndDrain(context.Background(), time.Hour)
		fmt.Println(errors.Is(err, fakeclock.ErrLoopLimit))
		clk.Close()
	})
	// Output:
	// true
	// PASS
}
