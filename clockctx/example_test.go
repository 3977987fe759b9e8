package clockctx_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// pollReady is production code: it asks ready every 500ms on clk and gives
// up after 2s, on clk's time.
func pollReady(ctx context.Context, clk clockwork.Clock, ready func() bool) error {
	ctx, cancel := clockctx.WithTimeout(ctx, clk, 2*time.Second)
	defer cancel()
	for !ready() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-clk.After(500 * time.Millisecond):
		}
	}
	return nil
}

// In the test, the deadline passes on the fake clock: the loop polls at 0,
// 500ms, 1s and 1.5s and gives up at exactly 2s, without a real wait. In production,
// pollReady(ctx, clockwork.NewRealClock(), ready) gets the context
// package's context.
func ExampleWithTimeout() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		polls := 0
		result := make(chan string, 1)
		go func() {
			err := pollReady(context.Background(), clk, func() bool { polls++; return false })
			result <- fmt.Sprintf("%v at +%v after %d polls", err, clk.Since(fakeclock.Epoch), polls)
		}()
		clk.Step(time.Minute)
		fmt.Println(<-result)
	})
	// Output:
	// context deadline exceeded at +2s after 4 polls
	// PASS
}

// clockwork.WithTimeout fakes time only for clockwork's own FakeClock:
// given any other clock it returns a context on real time, which no
// advance of the fake clock ends.
func ExampleWithTimeout_clockwork() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		wrong, cancelWrong := clockwork.WithTimeout(context.Background(), clk, time.Hour)
		defer cancelWrong()
		right, cancelRight := clockctx.WithTimeout(context.Background(), clk, time.Hour)
		defer cancelRight()
		clk.Step(time.Hour)
		fmt.Println("clockwork.WithTimeout:", wrong.Err())
		fmt.Println("clockctx.WithTimeout: ", right.Err())
	})
	// Output:
	// clockwork.WithTimeout: <nil>
	// clockctx.WithTimeout:  context deadline exceeded
	// PASS
}

// fetchWithRetry is production code: it calls fetch until it succeeds,
// waiting 1s, 2s and 4s between attempts on clk, for at most 5s in all.
func fetchWithRetry(ctx context.Context, clk clockwork.Clock, fetch func() error) error {
	ctx, cancel := clockctx.WithTimeout(ctx, clk, 5*time.Second)
	defer cancel()
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if fetch() == nil {
			return nil
		}
		if err := clockctx.Sleep(ctx, clk, d); err != nil {
			return err
		}
	}
	return fetch()
}

// The third wait, of 4s, would end at 7s: the 5s deadline cuts it, and
// Sleep stops its timer, so nothing is left pending on the clock.
func ExampleSleep() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		var attempts []string
		result := make(chan error, 1)
		go func() {
			result <- fetchWithRetry(context.Background(), clk, func() error {
				attempts = append(attempts, "+"+clk.Since(fakeclock.Epoch).String())
				return errors.New("503 Service Unavailable")
			})
		}()
		clk.Step(time.Minute)
		fmt.Println(<-result, "after attempts at", attempts)
		fmt.Println("pending timers:", len(clk.Pending()))
	})
	// Output:
	// context deadline exceeded after attempts at [+0s +1s +3s]
	// pending timers: 0
	// PASS
}

// retryWithTimer is a loop in the shape of cenkalti/backoff's
// RetryNotifyWithTimer: it waits on a timer it starts and reads.
func retryWithTimer(timer interface {
	Start(time.Duration)
	Stop()
	C() <-chan time.Time
}, op func() error, delays ...time.Duration) error {
	defer timer.Stop()
	err := op()
	for _, d := range delays {
		if err == nil {
			return nil
		}
		timer.Start(d)
		<-timer.C()
		err = op()
	}
	return err
}

// A library that takes a timer waits on the test's fake clock through
// NewTimer, and one Step drives its whole schedule.
func ExampleNewTimer() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		var at []time.Duration
		op := func() error {
			at = append(at, clk.Since(fakeclock.Epoch))
			return errors.New("503")
		}
		done := make(chan error, 1)
		go func() { done <- retryWithTimer(clockctx.NewTimer(clk), op, 500*time.Millisecond, time.Second) }()
		clk.Step(1500 * time.Millisecond)
		fmt.Println(<-done, at)
	})
	// Output:
	// 503 [0s 500ms 1.5s]
	// PASS
}
