package fakeclock_test

import (
	"context"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

// retryOnce is retry code called the wrong way in the tests below: on the
// test's own goroutine, before anyone steps the clock.
func retryOnce(clk *fakeclock.Clock) {
	clk.Sleep(time.Second) // the backoff
}

func retryOnceCtx(clk *fakeclock.Clock) error {
	return clockctx.Sleep(context.Background(), clk, time.Second)
}

func retryOnceAfter(clk *fakeclock.Clock) {
	<-clk.After(time.Second)
}

// Issue 23: a call made synchronously on the test's goroutine parks on the
// clock that only that goroutine would step. It hung until go test's
// timeout (10 minutes) and ended in the testing package's panic; now the
// clock reports it after SyncWaitLimit of real time — the goroutine, where
// it waits, the cause and the fix — and releases the wait, so the test
// ends with that report.
func TestSyncWaitReported(t *testing.T) {
	fakeclock.SetSyncWaitLimit(t, 20*time.Millisecond)
	for _, tc := range []struct {
		name string
		call func(clk *fakeclock.Clock)
		at   string // how the report says it waits
	}{
		{"Sleep", retryOnce, `sleeps in Clock\.Sleep \(at watchdog_test\.go:\d+, in github\.com/retrykit/retrykit/fakeclock_test\.retryOnce\)`},
		{"clockctx.Sleep", func(clk *fakeclock.Clock) { _ = retryOnceCtx(clk) },
			`waits in a select \(at watchdog_test\.go:\d+, in github\.com/retrykit/retrykit/fakeclock_test\.retryOnceCtx\) for a timer of this clock it armed at watchdog_test\.go:\d+`},
		{"After", retryOnceAfter,
			`waits in a chan receive \(at watchdog_test\.go:\d+, in github\.com/retrykit/retrykit/fakeclock_test\.retryOnceAfter\) for a timer of this clock it armed at watchdog_test\.go:\d+`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ft := &fakeT{}
			clk := fakeclock.New(ft, fakeclock.WithoutLeakCheck())
			tc.call(clk) // returns once the clock reports and closes
			errs := ft.finish()
			if len(errs) != 1 {
				t.Fatalf("reported %q, want one report", errs)
			}
			want := `^fakeclock: goroutine \d+, which runs the test, has waited on this clock for 20ms of real time while no advance began: it ` + tc.at +
				`, and it is the goroutine that would advance the clock, so nothing can end the wait\. The call under test was made on the test's goroutine: ` +
				`start it on a goroutine of its own \(go, or recorder\.Start\) and advance the clock from the test \(Step\)\. ` +
				`The clock is closed now, which ends the wait: the code under test ran on without fake time\.$`
			if !regexp.MustCompile(want).MatchString(errs[0]) {
				t.Errorf("report:\n%s\nwant it to match\n%s", errs[0], want)
			}
		})
	}
}

// A helper goroutine that steps the clock while the test's goroutine waits
// on it is legitimate: the watchdog sees the advances and says nothing.
// The watchdog looks when LookNow says, after the helper's first step, not
// 20ms of real time after the sleep began: a helper that a loaded machine
// kept from stepping for 20ms was reported (1 run in 1000 of a race build
// at GOMAXPROCS=4), as the rule says it must be.
func TestSyncWaitWithStepperIsFine(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx := context.Background()
		if err := clk.WaitForTimers(ctx, 1); err != nil {
			t.Error(err)
			return
		}
		for _, look := range []bool{true, false} { // the sleep still waits after the first step
			if err := clk.AdvanceAndDrain(ctx, 500*time.Millisecond); err != nil {
				t.Error(err)
				return
			}
			if look {
				if err := fakeclock.LookNow(clk); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	retryOnce(clk)
	<-done
	if errs := ft.finish(); len(errs) != 0 {
		t.Errorf("reported %q, want nothing", errs)
	}
}

// A goroutine other than the test's parked on the clock, with nobody
// stepping, is not the test's own wait: the clock does not close it
// under the test (its leak check reports it at the end, as before).
func TestSyncWaitOtherGoroutineNotReported(t *testing.T) {
	fakeclock.SetSyncWaitLimit(t, 5*time.Millisecond)
	looks := fakeclock.OnWatchdogLook(t)
	ft := &fakeT{}
	clk := fakeclock.New(ft, fakeclock.WithoutLeakCheck())
	parked := make(chan struct{})
	go func() {
		close(parked)
		clk.Sleep(time.Hour)
	}()
	<-parked
	clk.Step(0) // settled: the goroutine sleeps on the clock
	// The watchdog looks twice, says nothing, and watches on.
	<-looks
	<-looks
	if errs := ft.finish(); len(errs) != 0 {
		t.Errorf("reported %q, want nothing", errs)
	}
}

// Issue 38: an advance that begins once the wait's timer is pending, but
// before the wait has told the watchdog, is an advance since the wait
// began. The watchdog counted it as none: its look then reported that
// nothing could end the wait and closed the clock, though an advance had
// run and a second one was on its way. OnArmed puts the advance in that
// window on every run, not one in a thousand.
func TestWatchdogCountsAnAdvanceBegunWhileTheWaitArms(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft, fakeclock.WithoutLeakCheck())
	var once sync.Once
	fakeclock.OnArmed(t, func(c *fakeclock.Clock) {
		if c == clk {
			once.Do(func() { clk.Advance(time.Second) }) // fires nothing: the sleep is due at +2s
		}
	})
	errs := make(chan error, 1)
	go func() { // steps the clock while the test's goroutine sleeps on it
		errs <- func() error {
			if err := fakeclock.LookNow(clk); err != nil {
				return err
			}
			return clk.AdvanceAndDrain(context.Background(), time.Second)
		}()
	}()
	clk.Sleep(2 * time.Second)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if got := ft.finish(); len(got) != 0 {
		t.Errorf("the watchdog reported %q, want nothing: an advance (Advance(1s)) began after the sleep's timer was pending", got)
	}
	if got, want := clk.Now(), fakeclock.Epoch.Add(2*time.Second); !got.Equal(want) {
		t.Errorf("Now() = %v after Advance(1s) and AdvanceAndDrain(1s), want %v", got, want)
	}
}
