package fakeloop_test

import (
	"context"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/recipes/internal/fakeloop"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// backoff waits base, 2·base, … on clk between attempts, at most attempts
// times, and gives up early when ctx ends.
func backoff(ctx context.Context, clk *fakeclock.Clock, sw *retrytest.Stopwatch, base time.Duration, attempts int) error {
	for i := range attempts {
		sw.Attempt()
		if i == attempts-1 {
			break
		}
		t := clk.NewTimer(base << i)
		select {
		case <-t.Chan():
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	return nil
}

func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		name    string
		timeout time.Duration // of a fake-time context; 0 for none
		want    []time.Duration
		wantErr error
	}{
		{"until the loop returns", 0, []time.Duration{0, time.Second, 3 * time.Second, 7 * time.Second}, nil},
		{"a context's deadline counted apart", 5 * time.Second, []time.Duration{0, time.Second, 3 * time.Second}, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			sw := retrytest.NewStopwatch().WithClock(clk)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = clk.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			err := fakeloop.Start(clk, func() error { return backoff(ctx, clk, sw, time.Second, 4) }).Finish(t)
			if err != tc.wantErr {
				t.Errorf("Finish() = %v, want %v", err, tc.wantErr)
			}
			retrytest.AssertAttemptsAt(t, sw, tc.want...)
		})
	}
}

func TestArmed(t *testing.T) {
	clk := fakeclock.New(t)
	sw := retrytest.NewStopwatch().WithClock(clk)
	loop := fakeloop.Start(clk, func() error { return backoff(context.Background(), clk, sw, time.Second, 2) })
	loop.Armed(t)
	if got := clk.Pending(); len(got) != 1 || got[0].Delay != time.Second {
		t.Errorf("Pending() after Armed = %v, want the loop's 1s wait", got)
	}
	loop.Finish(t)
}
