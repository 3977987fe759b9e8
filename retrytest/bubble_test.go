package retrytest_test

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

func TestInBubble(t *testing.T) {
	if retrytest.InBubble() {
		t.Errorf("InBubble() = true outside a bubble")
	}
	synctest.Test(t, func(t *testing.T) {
		if !retrytest.InBubble() {
			t.Errorf("InBubble() = false inside a bubble")
		}
		done := make(chan bool)
		go func() { done <- retrytest.InBubble() }()
		if !<-done {
			t.Errorf("InBubble() = false in a goroutine of the bubble")
		}
	})
}

// Advance(d) returns with every goroutine woken by d settled: a timer due
// at exactly the end of the advance has fired and its goroutine has run.
func TestAdvanceSettles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var fired []time.Duration
		start := time.Now()
		for _, d := range []time.Duration{time.Second, 2 * time.Second, 2 * time.Second, 3 * time.Second} {
			go func() {
				time.Sleep(d)
				mu.Lock()
				fired = append(fired, time.Since(start))
				mu.Unlock()
			}()
		}
		count := func() int { mu.Lock(); defer mu.Unlock(); return len(fired) }
		for _, tc := range []struct {
			by   time.Duration
			want int
		}{{0, 0}, {999 * time.Millisecond, 0}, {time.Millisecond, 1}, {time.Second, 3}, {time.Second, 4}} {
			retrytest.Step(tc.by)
			if got := count(); got != tc.want {
				t.Errorf("after Advance(%v) at %v: %d fired, want %d", tc.by, time.Since(start), got, tc.want)
			}
		}
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("bubble time = %v, want 3s", got)
		}
	})
}

func TestStepMisuse(t *testing.T) {
	if got, want := panicText(func() { retrytest.Step(time.Hour) }),
		"retrytest: Step: not inside a testing/synctest bubble, where time.Sleep(1h) would sleep in real time; "+
			"call it from the function passed to synctest.Test, or step a fakeclock.Clock (Clock.Step) outside a bubble"; got != want {
		t.Errorf("Step outside a bubble panicked %q, want %q", got, want)
	}
	synctest.Test(t, func(t *testing.T) {
		if got, want := panicText(func() { retrytest.Step(-time.Second) }), "retrytest: Step: negative duration -1s"; got != want {
			t.Errorf("Step(-1s) panicked %q, want %q", got, want)
		}
	})
}

// The synctest pitfall: a budget captured outside the bubble.
type budget struct{ deadline time.Time }

func newBudget(d time.Duration) *budget { return &budget{deadline: time.Now().Add(d)} }

func TestBubbleTime(t *testing.T) {
	outside := newBudget(time.Minute) // built before synctest.Test: real time
	synctest.Test(t, func(t *testing.T) {
		inside := newBudget(time.Minute)
		retrytest.AssertBubbleTime(t, inside.deadline)
		retrytest.AssertBubbleTime(t, time.Now())
		if err := retrytest.CheckBubbleTime(outside.deadline); err == nil {
			t.Errorf("CheckBubbleTime(real time) = nil, want an error")
		}
	})
	for _, tc := range []struct {
		tm time.Time
		ok bool
	}{
		{fakeclock.Epoch, true},
		{fakeclock.Epoch.Add(-time.Hour), true}, // a date computed back from bubble time
		{time.Date(2009, 12, 31, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(1989, 12, 31, 0, 0, 0, 0, time.UTC), false},
		{time.Time{}, false},
	} {
		if err := retrytest.CheckBubbleTime(tc.tm); (err == nil) != tc.ok {
			t.Errorf("CheckBubbleTime(%v) = %v, want ok %v", tc.tm, err, tc.ok)
		}
	}
	var msgs []string
	for _, tm := range []time.Time{time.Date(2026, 11, 30, 13, 42, 7, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), {}} {
		f := run(func(t retrytest.TestingT) { retrytest.AssertBubbleTime(t, tm) })
		if f.FailedNow || len(f.Errors) != 1 {
			t.Fatalf("AssertBubbleTime(%v): errors %q, FailNow %v; want one error, no FailNow", tm, f.Errors, f.FailedNow)
		}
		msgs = append(msgs, f.Errors[0])
	}
	golden.Check(t, "harness_bubble_time", strings.Join(msgs, "\n")+"\n")
}

func TestStopwatchInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := retrytest.NewStopwatch()
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
	sw := retrytest.NewStopwatch().WithClock(clk)
	sw.Attempt()
	clk.Advance(7 * time.Second)
	sw.Attempt()
	retrytest.AssertAttemptsAt(t, sw, 0, 7*time.Second)
	if got := retrytest.NewStopwatch().String(); got != "stopwatch: 0 attempts" {
		t.Errorf("empty String() = %q", got)
	}
	retrytest.AssertAttempts(t, retrytest.NewStopwatch(), 0)
}

// TestStopwatchOrigin: a stopwatch made in a bubble, or given a clock,
// starts then, so a wait before the first attempt shows.
func TestStopwatchOrigin(t *testing.T) {
	want := []time.Duration{time.Second, 3 * time.Second}
	synctest.Test(t, func(t *testing.T) {
		sw := retrytest.NewStopwatch()
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
	sw := retrytest.NewStopwatch().WithClock(clk)
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
		{func() { retrytest.NewStopwatch().WithClock(nil) }, "retrytest: Stopwatch.WithClock: nil clock; leave WithClock out to use time.Now"},
		{func() { retrytest.NewStopwatch().AttemptResult(nil) }, "retrytest: Stopwatch.AttemptResult: no attempt marked yet; call Attempt when an attempt starts"},
	} {
		if got := panicText(tc.fn); got != tc.want {
			t.Errorf("panic %q, want %q", got, tc.want)
		}
	}
}
