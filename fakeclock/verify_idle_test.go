package fakeclock_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// heartbeat ticks every second until ctx is canceled: a loop that stops
// only on cancellation.
func heartbeat(ctx context.Context, clk *fakeclock.Clock, stopped chan<- struct{}) {
	defer close(stopped)
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.Chan():
		}
	}
}

// TestVerifyIdleSeesWhatCleanupMisses: a t.Cleanup(cancel) registered
// after New runs before the clock's own check, so the ticker of a loop
// that stops only on cancellation looks clean there; VerifyIdle, the last
// line of the test, sees it.
func TestVerifyIdleSeesWhatCleanupMisses(t *testing.T) {
	for _, verify := range []bool{false, true} {
		ft := &fakeT{}
		clk := fakeclock.New(ft)
		ctx, cancel := context.WithCancel(t.Context())
		ft.Cleanup(cancel)
		stopped := make(chan struct{})
		site := make(chan string, 1)
		go func() {
			site <- here()
			heartbeat(ctx, clk, stopped)
		}()
		clk.Step(0)
		if verify {
			clk.VerifyIdle()
		}
		got := ft.finish()
		<-stopped
		<-site
		switch {
		case !verify && len(got) != 0:
			t.Errorf("without VerifyIdle: errors %q, want none (the cleanup order hides the ticker)", got)
		case verify && (len(got) != 1 || !strings.HasPrefix(got[0], "fakeclock: 1 timer still pending on the clock at VerifyIdle (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):\n    Ticker every 1s, next at +1s, armed at verify_idle_test.go:")):
			t.Errorf("with VerifyIdle: errors %q, want one report of the ticker", got)
		}
	}
}

// TestVerifyIdleClean: nothing pending, nothing reported, and the check at
// cleanup still runs after a clean VerifyIdle.
func TestVerifyIdleClean(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	clk.VerifyIdle()
	clk.NewTimer(time.Minute)
	got := ft.finish()
	if len(got) != 1 || !strings.HasPrefix(got[0], "fakeclock: 1 timer still pending on the clock at the end of the test") {
		t.Errorf("errors %q, want only the cleanup's report of the timer armed after VerifyIdle", got)
	}
}

// The order of a test's endings: the test's defers run first, then its
// cleanups last registered first — t.Context() ends just before them — and
// the clock's own check, registered by New, runs after every cleanup
// registered later. A loop that stops only when its context is canceled
// has stopped by then, so its ticker looks clean. VerifyIdle, as the last
// line of the test, checks before any of that.
func ExampleClock_VerifyIdle() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		stopped := make(chan struct{})
		t.Cleanup(func() { <-stopped })
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel) // runs before the clock's check: too early to see the leak
		go heartbeat(ctx, clk, stopped)
		clk.Step(3 * time.Second)
		clk.VerifyIdle() // the test's last line
	})
	// Output:
	// fakeclock: 1 timer still pending on the clock at VerifyIdle (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):
	//     Ticker every 1s, next at +4s, armed at verify_idle_test.go:17
	// FAIL
}
