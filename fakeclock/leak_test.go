package fakeclock_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
)

func TestLeakCheck(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	tk, tickerSite := clk.NewTicker(time.Second), here()
	_ = tk
	parked := make(chan struct{})
	sleepSite := make(chan string, 1)
	go func() {
		defer close(parked)
		sleepSite <- nextLine()
		clk.Sleep(500 * ms)
	}()
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	got := ft.finish()
	want := []string{"fakeclock: 2 timers still pending on the clock at the end of the test (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):" +
		"\n    Sleep 500ms, due at +500ms, armed at " + <-sleepSite + " (a goroutine is parked in Sleep)" +
		"\n    Ticker every 1s, next at +1s, armed at " + tickerSite}
	if !slices.Equal(got, want) {
		t.Errorf("errors at Cleanup:\n%q\nwant:\n%q", got, want)
	}
	<-parked // Close released the sleeping goroutine
}

func TestLeakCheckClean(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	tk := clk.NewTicker(time.Second)
	ctx, cancel := context.WithCancel(t.Context())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		tk.Stop() // stops its ticker only after the test's own cleanup ran
	}()
	ft.Cleanup(cancel)
	if got := ft.finish(); len(got) != 0 {
		t.Errorf("errors at Cleanup = %q, want none", got)
	}
	<-stopped
}

func TestWithoutLeakCheck(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft, fakeclock.WithoutLeakCheck())
	clk.NewTicker(time.Second)
	done := make(chan struct{})
	go func() {
		defer close(done)
		clk.Sleep(time.Hour)
	}()
	if got := ft.finish(); len(got) != 0 {
		t.Errorf("errors at Cleanup = %q, want none", got)
	}
	<-done
}

func TestClose(t *testing.T) {
	clk := fakeclock.New(t)
	slept := make(chan struct{})
	go func() {
		defer close(slept)
		clk.Sleep(time.Hour)
	}()
	after := clk.After(time.Hour)
	tk := clk.NewTicker(time.Second)
	ran := make(chan struct{})
	clk.AfterFunc(time.Second, func() { close(ran) })
	ctx, cancel := clk.WithTimeout(t.Context(), time.Hour)
	defer cancel()
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	clk.Close()
	clk.Close()
	<-slept
	if v := <-after; !v.Equal(fakeclock.Epoch) {
		t.Errorf("After(1h) after Close received %v, want %v", v, fakeclock.Epoch)
	}
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(context.Cause(ctx), fakeclock.ErrClosed) {
		t.Errorf("context after Close: Err() = %v, Cause = %v, want context.Canceled, ErrClosed", ctx.Err(), context.Cause(ctx))
	}
	if got := clk.Pending(); len(got) != 0 {
		t.Errorf("Pending() after Close = %v, want none", got)
	}
	// A closed clock parks nobody.
	clk.Sleep(time.Hour)
	<-clk.After(time.Hour)
	if err := clk.AdvanceAndDrain(t.Context(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tk.Chan():
		t.Error("ticker ticked after Close")
	case <-ran:
		t.Error("AfterFunc ran after Close")
	default:
	}
}

// recordingT passes Cleanup to a real test and records Errorf.
type recordingT struct {
	*testing.T
	mu     sync.Mutex
	errors []string
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestLeakCheckInBubble: inside a bubble the Cleanup check reports the
// parked goroutine, and Close releases it, so synctest.Test does not panic
// with "blocked goroutines remain".
func TestLeakCheckInBubble(t *testing.T) {
	var rt *recordingT
	var site string
	synctest.Test(t, func(t *testing.T) {
		rt = &recordingT{T: t}
		clk := fakeclock.New(rt)
		armed := make(chan string, 1)
		go func() {
			armed <- nextLine()
			clk.Sleep(time.Minute)
		}()
		site = <-armed
	})
	want := []string{"fakeclock: 1 timer still pending on the clock at the end of the test (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):" +
		"\n    Sleep 1m, due at +1m, armed at " + site + " (a goroutine is parked in Sleep)"}
	if !slices.Equal(rt.errors, want) {
		t.Errorf("errors at Cleanup:\n%q\nwant:\n%q", rt.errors, want)
	}
}

// waitOrCancel is the idiomatic wait of a retry loop: the After's channel
// is garbage once it returns through ctx.Done().
func waitOrCancel(ctx context.Context, clk *fakeclock.Clock, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-clk.After(d):
		return nil
	}
}

// TestLeakCheckAfterNobodyWaitsOn: an After whose channel nothing
// references any more is not a leak (it is garbage since Go 1.23), in or
// out of a bubble.
func TestLeakCheckAfterNobodyWaitsOn(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, clk *fakeclock.Clock)
	}{
		{"returned through ctx.Done", func(t *testing.T, clk *fakeclock.Clock) {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- waitOrCancel(ctx, clk, time.Hour) }()
			clk.Step(time.Second)
			cancel()
			if err := <-done; err != context.Canceled {
				t.Errorf("waitOrCancel() = %v, want context.Canceled", err)
			}
		}},
		{"dropped by the test", func(t *testing.T, clk *fakeclock.Clock) {
			clk.After(time.Hour)
		}},
		{"fired after it was dropped", func(t *testing.T, clk *fakeclock.Clock) {
			clk.After(time.Second)
			runtime.GC()
			clk.Step(time.Second)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeT{}
			clk := fakeclock.New(ft)
			tc.run(t, clk)
			if got := ft.finish(); len(got) != 0 {
				t.Errorf("errors at Cleanup = %q, want none", got)
			}
		})
		t.Run(tc.name+" in a bubble", func(t *testing.T) {
			var rt *recordingT
			synctest.Test(t, func(t *testing.T) {
				rt = &recordingT{T: t}
				tc.run(t, fakeclock.New(rt))
			})
			if len(rt.errors) != 0 {
				t.Errorf("errors at Cleanup = %q, want none", rt.errors)
			}
		})
	}
}

// TestLeakCheckAfterAGoroutineWaitsOn: an After that a goroutine of the
// test is still parked on is a leak, reported with its call site and the
// goroutine's stack, in or out of a bubble.
func TestLeakCheckAfterAGoroutineWaitsOn(t *testing.T) {
	run := func(t *testing.T, ft fakeclock.FixtureT) (parked chan struct{}) {
		clk := fakeclock.New(ft)
		parked = make(chan struct{})
		go func() {
			defer close(parked)
			waitOrCancel(context.Background(), clk, time.Hour) // a loop that slept before its first attempt, stuck
		}()
		clk.Step(0)
		return parked
	}
	t.Run("outside a bubble", func(t *testing.T) {
		ft := &fakeT{}
		parked := run(t, ft)
		got := ft.finish()
		<-parked // Close released it
		checkParkedAfter(t, got)
	})
	t.Run("in a bubble", func(t *testing.T) {
		var rt *recordingT
		synctest.Test(t, func(t *testing.T) {
			rt = &recordingT{T: t}
			run(t, rt)
		})
		checkParkedAfter(t, rt.errors)
	})
}

func checkParkedAfter(t *testing.T, got []string) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("errors at Cleanup = %q, want one", got)
	}
	head, stacks, _ := strings.Cut(got[0], "\n\n")
	wantHead := regexp.MustCompile(`^` + regexp.QuoteMeta("fakeclock: 1 timer still pending on the clock at the end of the test (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):\n"+
		"    After 1h, due at +1h, armed at leak_test.go:") + `\d+` + regexp.QuoteMeta(" (goroutine ") + `(\d+)` +
		regexp.QuoteMeta(" of the test still blocked in github.com/retrykit/retrykit/fakeclock_test.waitOrCancel)") + `$`)
	m := wantHead.FindStringSubmatch(head)
	if m == nil {
		t.Fatalf("errors at Cleanup:\n%s\nwant a first part matching\n%s", got[0], wantHead)
	}
	if !strings.HasPrefix(stacks, "goroutine "+m[1]+" [select") || !strings.Contains(stacks, "fakeclock_test.waitOrCancel(") {
		t.Errorf("errors at Cleanup end with\n%s\nwant the stack of goroutine %s, blocked in waitOrCancel", stacks, m[1])
	}
}

// TestLeakCheckAfterStillReferenced: an After whose channel something
// still holds, with no goroutine waiting on it, is the one case the leak
// check cannot decide (the runtime does not promise to clear a weak
// pointer): no leak is reported, and a note says so, naming the After.
func TestLeakCheckAfterStillReferenced(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	ch, site := clk.After(time.Minute), here()
	got := ft.finish()
	runtime.KeepAlive(ch)
	if len(got) != 0 {
		t.Errorf("errors at Cleanup = %q, want none: a kept After nobody waits on is not proven a leak", got)
	}
	want := []string{"fakeclock: cannot tell whether 1 After still pending on the clock at the end of the test leaked: no goroutine of the test waits where it was armed, and the garbage collector has not reclaimed its channel (the runtime does not promise it ever will); not reported as a leak:" +
		"\n    After 1m, due at +1m, armed at " + site}
	if logs := ft.logged(); !slices.Equal(logs, want) {
		t.Errorf("logs at Cleanup:\n%q\nwant:\n%q", logs, want)
	}
}

// An After that leaks for sure (a goroutine waits on it) is reported, and
// a kept one beside it only noted: the verdicts do not mix.
func TestLeakCheckSureAndUnsureAfters(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	kept := clk.After(time.Minute)
	parked := make(chan struct{})
	go func() {
		defer close(parked)
		<-clk.After(time.Hour)
	}()
	clk.Step(0)
	got := ft.finish()
	runtime.KeepAlive(kept)
	<-parked // Close released it
	if len(got) != 1 || !strings.Contains(got[0], "1 timer still pending") || !strings.Contains(got[0], "After 1h") || strings.Contains(got[0], "After 1m") {
		t.Errorf("errors at Cleanup = %q, want one report of the After 1h alone", got)
	}
	if logs := ft.logged(); len(logs) != 1 || !strings.Contains(logs[0], "cannot tell whether 1 After") || !strings.Contains(logs[0], "After 1m") {
		t.Errorf("logs at Cleanup = %q, want one note of the After 1m", logs)
	}
}
