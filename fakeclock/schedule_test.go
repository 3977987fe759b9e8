package fakeclock_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

// TestRetryScheduleIsTheLoopsWaits: the schedule a clock reports is the
// waits of the loop — sleeps, and timers or AfterFuncs that ran their
// course or are still pending — not a context deadline, nor a timer
// stopped before it fired (a per-attempt timeout), nor a ticker.
func TestRetryScheduleIsTheLoopsWaits(t *testing.T) {
	clk := fakeclock.New(t)
	ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 20*time.Second) // the loop's overall deadline
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, d := range []time.Duration{250 * ms, 500 * ms} {
			attempt, stop := clockctx.WithTimeout(ctx, clk, time.Second) // a per-attempt timeout
			_ = attempt
			stop() // the attempt returned in time
			if err := clockctx.Sleep(ctx, clk, d); err != nil {
				return
			}
		}
		tk := clk.NewTicker(time.Minute) // a heartbeat
		tk.Stop()
		tm := clk.NewTimer(5 * time.Second) // a timeout that was not needed
		tm.Stop()
		clk.AfterFunc(750*ms, func() {}) // the next attempt, scheduled
	}()
	clk.Step(time.Second)
	<-done
	_, _, waits, _ := clk.RetrySchedule()
	if want := []time.Duration{250 * ms, 500 * ms, 750 * ms}; !slices.Equal(waits, want) {
		t.Errorf("RetrySchedule() waits = %v, want %v", waits, want)
	}
	clk.Step(time.Second)
}

// TestRetrySchedulePendingAndReset: a pending wait counts; a timer Reset
// while pending counts once, at its new duration; one Reset after it
// fired counts twice.
func TestRetrySchedulePendingAndReset(t *testing.T) {
	clk := fakeclock.New(t, fakeclock.WithoutLeakCheck())
	pending := clk.NewTimer(time.Second)
	pending.Reset(2 * time.Second)
	fired := clk.NewTimer(0)
	<-fired.Chan()
	fired.Reset(3 * time.Second)
	_, _, waits, _ := clk.RetrySchedule()
	if want := []time.Duration{2 * time.Second, 0, 3 * time.Second}; !slices.Equal(waits, want) {
		t.Errorf("RetrySchedule() waits = %v, want %v", waits, want)
	}
	if attempts, results, _, untimed := clk.RetrySchedule(); attempts != nil || results != nil || untimed != "" {
		t.Errorf("RetrySchedule() = %v, %v, _, %q; want a clock to report waits only", attempts, results, untimed)
	}
}

// TestSleepContext: the sleep seam of a retry loop, on the clock.
func TestSleepContext(t *testing.T) {
	clk := fakeclock.New(t)
	var sleep func(context.Context, time.Duration) error = clk.SleepContext
	errc := make(chan error, 1)
	go func() { errc <- sleep(t.Context(), 500*ms) }()
	clk.Step(499 * ms)
	select {
	case err := <-errc:
		t.Fatalf("SleepContext(500ms) returned %v after 499ms", err)
	default:
	}
	clk.Step(ms)
	if err := <-errc; err != nil {
		t.Errorf("SleepContext(500ms) after 500ms = %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { errc <- clk.SleepContext(ctx, time.Hour) }()
	clk.Step(0)
	cancel()
	if err := <-errc; err != context.Canceled {
		t.Errorf("SleepContext(1h) canceled = %v, want context.Canceled", err)
	}
	if p := clk.Pending(); len(p) != 0 {
		t.Errorf("Pending() after a canceled SleepContext = %v, want none", p)
	}
}

// TestDelaysOfALongLoop: a loop of thousands of waits (a fleet asks for
// millions) is logged whole and in order, and a timer stopped before it
// fired is left out wherever it falls in the log: the first wait, the
// last, and those on either side of every 1,024th.
func TestDelaysOfALongLoop(t *testing.T) {
	clk := fakeclock.New(t)
	const n = 3000
	stopped := map[int]bool{0: true, 1023: true, 1024: true, 2047: true, 2048: true, n - 1: true}
	var want []time.Duration
	for i := range n {
		d := time.Duration(i+1) * ms
		tm := clk.NewTimer(d)
		if stopped[i] {
			tm.Stop()
			continue
		}
		want = append(want, d)
		defer tm.Stop()
	}
	if got := clk.Delays(); !slices.Equal(got, want) {
		t.Errorf("Delays() has %d waits, want %d: the %d timers armed, less the %d stopped (first differences: %v)", len(got), len(want), n, len(stopped), firstDiff(got, want))
	}
}

// firstDiff describes where got and want first differ.
func firstDiff(got, want []time.Duration) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d, %s, want %s", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("the lengths, %d and %d", len(got), len(want))
}
