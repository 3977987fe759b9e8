package clockctx_test

import (
	"context"
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
