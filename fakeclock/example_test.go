package fakeclock_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/fakeclock"
)

// exampleT is the FixtureT the examples give New; a test passes its
// *testing.T instead.
type exampleT struct{ cleanups []func() }

func (*exampleT) Helper()                      {}
func (t *exampleT) Cleanup(f func())           { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Logf(format string, a ...any) { fmt.Printf(format+"\n", a...) }
func (*exampleT) Errorf(format string, a ...any) {
	fmt.Printf("ERROR: "+format+"\n", a...)
}
func (*exampleT) Fatalf(format string, a ...any) { panic(fmt.Sprintf(format, a...)) }

// finish runs the cleanups as the testing package would at the end of a
// test: the clock's leak check, then Close.
func (t *exampleT) finish() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}

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

func (c *calls) times() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.at...)
}

// The test of seed 003, in Go: wait 500ms, then 1000ms, and do not wait
// before the first attempt. The operation is started, not awaited; each
// AdvanceAndDrain lets it run until it waits on the clock again.
func Example() {
	t := &exampleT{}
	defer t.finish()
	ctx := context.Background()

	clk := fakeclock.New(t)
	c := &calls{clk: clk}
	result := make(chan error, 1)
	op := c.op(2)
	go func() { result <- withBackoff(ctx, clk, 500*time.Millisecond, 3, op) }()

	for _, step := range []time.Duration{0, 499 * time.Millisecond, time.Millisecond, 1000 * time.Millisecond} {
		if err := clk.AdvanceAndDrain(ctx, step); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("+%v: %d calls\n", step, len(c.times()))
	}
	fmt.Println("result:", <-result)
	fmt.Println("attempts at:", c.times())
	fmt.Println("delays asked of the clock:", clk.Delays())
	// Output:
	// +0s: 1 calls
	// +499ms: 1 calls
	// +1ms: 2 calls
	// +1s: 3 calls
	// result: <nil>
	// attempts at: [0s 500ms 1.5s]
	// delays asked of the clock: [500ms 1s]
}

// One AdvanceAndDrain drives the whole schedule: the timers the loop arms
// inside the window fire in the same call, each at its own deadline.
func ExampleClock_AdvanceAndDrain() {
	t := &exampleT{}
	defer t.finish()
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
	fmt.Println("result:", <-result)
	fmt.Println("attempts at:", c.times())
	// Output:
	// result: <nil>
	// attempts at: [0s 500ms 1.5s]
}

// An overall deadline on fake time aborts the loop in the middle of a wait.
// fakeclock.WithTimeout is what production code should call with the clock
// it was given; clockwork.WithTimeout would silently use real time here.
func ExampleWithTimeout() {
	t := &exampleT{}
	defer t.finish()

	clk := fakeclock.New(t)
	ctx, cancel := fakeclock.WithTimeout(context.Background(), clk, 2*time.Second)
	defer cancel()
	c := &calls{clk: clk}
	result := make(chan error, 1)
	op := c.op(10)
	go func() { result <- withBackoff(ctx, clk, 500*time.Millisecond, 10, op) }()

	if err := clk.AdvanceAndDrain(context.Background(), time.Hour); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("result:", <-result)
	fmt.Println("attempts at:", c.times())
	// Output:
	// result: context deadline exceeded
	// attempts at: [0s 500ms 1.5s]
}

// Pending tells what is still waiting on the clock, and where it was armed.
func ExampleClock_Pending() {
	t := &exampleT{}
	defer t.finish()

	clk := fakeclock.New(t)
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	tm := clk.NewTimer(1500 * time.Millisecond)
	defer tm.Stop()
	clk.Advance(2500 * time.Millisecond)
	for _, w := range clk.Pending() {
		fmt.Println(w.Kind, w.Deadline.Sub(fakeclock.Epoch), w.Period)
	}
	// Output:
	// Ticker 3s 1s
}

// RunUntilIdle refuses to run a live ticker forever.
func ExampleClock_RunUntilIdle() {
	t := &exampleT{}
	defer t.finish()

	clk := fakeclock.New(t, fakeclock.WithLoopLimit(100))
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	err := clk.RunUntilIdle(context.Background())
	fmt.Println(errors.Is(err, fakeclock.ErrLoopLimit))
	// Output:
	// true
}
