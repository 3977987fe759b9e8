package recorder_test

import (
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

func TestStopwatchInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		errUnavailable := errors.New("503 Service Unavailable")
		for i, d := range []time.Duration{0, 500 * time.Millisecond, time.Second} {
			time.Sleep(d)
			sw.Attempt()
			if i < 2 {
				sw.AttemptResult(errUnavailable)
			} else {
				sw.AttemptResult(nil)
			}
		}
		retrytest.AssertAttemptsAt(t, sw, 0, 500*time.Millisecond, 1500*time.Millisecond)
		retrytest.AssertDelays(t, sw, 500*time.Millisecond, time.Second)
		golden.Check(t, "harness_stopwatch", sw.String()+"\n")
		if sw.GomegaString() != sw.String() {
			t.Errorf("GomegaString() != String()")
		}
	})
}

func TestStopwatchOnFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	sw := recorder.NewStopwatch().WithClock(clk)
	sw.Attempt()
	clk.Advance(7 * time.Second)
	sw.Attempt()
	retrytest.AssertAttemptsAt(t, sw, 0, 7*time.Second)
	if got := recorder.NewStopwatch().String(); got != "stopwatch: 0 attempts" {
		t.Errorf("empty String() = %q", got)
	}
	retrytest.AssertAttempts(t, recorder.NewStopwatch(), 0)
}

// TestStopwatchOrigin: a stopwatch made in a bubble, or given a clock,
// starts then, so a wait before the first attempt shows.
func TestStopwatchOrigin(t *testing.T) {
	want := []time.Duration{time.Second, 3 * time.Second}
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		time.Sleep(time.Second)
		sw.Attempt()
		time.Sleep(2 * time.Second)
		sw.Attempt()
		if got, _, _, _ := sw.RetrySchedule(); !slices.Equal(got, want) {
			t.Errorf("in a bubble: attempts at %v, want %v", got, want)
		}
		if err := retrytest.CheckAttemptsAt(sw, 0, 2*time.Second); err == nil {
			t.Errorf("CheckAttemptsAt(sw, 0, 2s) = nil, want the wait before the first attempt caught")
		}
	})
	clk := fakeclock.New(t)
	clk.Advance(time.Minute)
	sw := recorder.NewStopwatch().WithClock(clk)
	clk.Advance(time.Second)
	sw.Attempt()
	clk.Advance(2 * time.Second)
	sw.Attempt()
	if got, _, _, _ := sw.RetrySchedule(); !slices.Equal(got, want) {
		t.Errorf("on a fake clock: attempts at %v, want %v", got, want)
	}
}

func TestStopwatchMisuse(t *testing.T) {
	for _, tc := range []struct {
		fn   func()
		want string
	}{
		{func() { recorder.NewStopwatch().WithClock(nil) }, "recorder: Stopwatch.WithClock: nil clock; leave WithClock out to use time.Now"},
		{func() { recorder.NewStopwatch().AttemptResult(nil) }, "recorder: Stopwatch.AttemptResult: no attempt marked yet; call Attempt when an attempt starts"},
	} {
		if got := faket.PanicText(tc.fn); got != tc.want {
			t.Errorf("panic %q, want %q", got, tc.want)
		}
	}
}
