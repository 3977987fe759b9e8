package bubble_test

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/internal/golden"
)

func TestInside(t *testing.T) {
	if bubble.Inside() {
		t.Errorf("Inside() = true outside a bubble")
	}
	synctest.Test(t, func(t *testing.T) {
		if !bubble.Inside() {
			t.Errorf("Inside() = false inside a bubble")
		}
		done := make(chan bool)
		go func() { done <- bubble.Inside() }()
		if !<-done {
			t.Errorf("Inside() = false in a goroutine of the bubble")
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
			bubble.SleepAndWait(tc.by)
			if got := count(); got != tc.want {
				t.Errorf("after SleepAndWait(%v) at %v: %d fired, want %d", tc.by, time.Since(start), got, tc.want)
			}
		}
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("bubble time = %v, want 3s", got)
		}
	})
}

func TestSleepAndWaitMisuse(t *testing.T) {
	if got, want := faket.PanicText(func() { bubble.SleepAndWait(time.Hour) }),
		"bubble: SleepAndWait: not inside a testing/synctest bubble, where time.Sleep(1h) would sleep in real time; "+
			"call it from the function passed to synctest.Test, or step a fakeclock.Clock (Clock.Step) outside a bubble"; got != want {
		t.Errorf("SleepAndWait outside a bubble panicked %q, want %q", got, want)
	}
	synctest.Test(t, func(t *testing.T) {
		if got, want := faket.PanicText(func() { bubble.SleepAndWait(-time.Second) }), "bubble: SleepAndWait: negative duration -1s"; got != want {
			t.Errorf("SleepAndWait(-1s) panicked %q, want %q", got, want)
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
		bubble.AssertTime(t, inside.deadline)
		bubble.AssertTime(t, time.Now())
		if err := bubble.CheckTime(outside.deadline); err == nil {
			t.Errorf("CheckTime(real time) = nil, want an error")
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
		if err := bubble.CheckTime(tc.tm); (err == nil) != tc.ok {
			t.Errorf("CheckTime(%v) = %v, want ok %v", tc.tm, err, tc.ok)
		}
	}
	var msgs []string
	for _, tm := range []time.Time{time.Date(2026, 11, 30, 13, 42, 7, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), {}} {
		f := faket.Run(func(t *faket.T) { bubble.AssertTime(t, tm) })
		if f.FailedNow || len(f.Errors) != 1 {
			t.Fatalf("AssertTime(%v): errors %q, FailNow %v; want one error, no FailNow", tm, f.Errors, f.FailedNow)
		}
		msgs = append(msgs, f.Errors[0])
	}
	golden.Check(t, "harness_bubble_time", strings.Join(msgs, "\n")+"\n")
}
