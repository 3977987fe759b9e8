package clockctx_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

// sleepClock is a clock Sleep waits on, made inside a synctest bubble:
// advance moves it by d and returns once the goroutines it woke wait
// again; timers reports how many timers are pending on it (-1 when it
// cannot tell) and delays how many waits were asked of it (-1 likewise).
type sleepClock struct {
	clk     clockwork.Clock
	advance func(d time.Duration)
	timers  func() int
	armed   func() int // timers armed in all
}

var sleepClocks = []struct {
	name string
	new  func(t *testing.T) sleepClock
}{
	{"fakeclock.Clock", func(t *testing.T) sleepClock {
		clk := fakeclock.New(t)
		return sleepClock{clk, clk.Step,
			func() int { return len(clk.Pending()) },
			func() int { return clk.Counters().Registered }}
	}},
	{"clockwork.FakeClock", func(*testing.T) sleepClock {
		fc := clockwork.NewFakeClockAt(epoch)
		return sleepClock{fc,
			func(d time.Duration) { synctest.Wait(); fc.Advance(d); synctest.Wait() },
			func() int { return clockworkTimers(fc) },
			func() int { return -1 }}
	}},
	{"nil clock", func(*testing.T) sleepClock {
		return sleepClock{nil,
			func(d time.Duration) { synctest.Wait(); time.Sleep(d); synctest.Wait() },
			func() int { return -1 },
			func() int { return -1 }}
	}},
}

// clockworkTimers is the number of timers pending on fc, up to 1.
func clockworkTimers(fc *clockwork.FakeClock) int {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if fc.BlockUntilContext(done, 1) == nil { // at once when 1 or more are
		return 1
	}
	return 0
}

// sleeping starts Sleep(ctx, clk, d) in a goroutine and returns the
// channel its result arrives on.
func sleeping(ctx context.Context, clk clockwork.Clock, d time.Duration) <-chan error {
	res := make(chan error, 1)
	go func() { res <- clockctx.Sleep(ctx, clk, d) }()
	return res
}

// returned reports whether Sleep has returned, and with what.
func returned(res <-chan error) (error, bool) {
	select {
	case err := <-res:
		return err, true
	default:
		return nil, false
	}
}

func TestSleep(t *testing.T) {
	for _, c := range sleepClocks {
		t.Run(c.name+"/d passes", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := c.new(t)
				res := sleeping(t.Context(), sc.clk, time.Second)
				sc.advance(999 * time.Millisecond)
				if err, ok := returned(res); ok {
					t.Fatalf("Sleep(ctx, clk, 1s) returned %v at 999ms, want it still waiting", err)
				}
				sc.advance(time.Millisecond)
				if err, ok := returned(res); !ok || err != nil {
					t.Errorf("Sleep(ctx, clk, 1s) at 1s = %v (returned %v), want nil", err, ok)
				}
			})
		})
		t.Run(c.name+"/canceled", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := c.new(t)
				ctx, cancel := context.WithCancel(t.Context())
				res := sleeping(ctx, sc.clk, time.Hour)
				sc.advance(time.Second)
				cancel()
				synctest.Wait()
				if err, ok := returned(res); !ok || err != context.Canceled {
					t.Errorf("Sleep(ctx, clk, 1h) after cancel at 1s = %v (returned %v), want context.Canceled at once", err, ok)
				}
				if n := sc.timers(); n > 0 {
					t.Errorf("%d timers pending after Sleep returned, want its timer stopped", n)
				}
			})
		})
		t.Run(c.name+"/deadline on the clock", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := c.new(t)
				ctx, cancel := clockctx.WithTimeout(t.Context(), sc.clk, 2*time.Second)
				defer cancel()
				res := sleeping(ctx, sc.clk, time.Hour)
				sc.advance(2 * time.Second)
				if err, ok := returned(res); !ok || err != context.DeadlineExceeded {
					t.Errorf("Sleep(ctx, clk, 1h) under a 2s deadline at 2s = %v (returned %v), want context.DeadlineExceeded", err, ok)
				}
				if n := sc.timers(); n > 0 {
					t.Errorf("%d timers pending after Sleep returned, want its timer stopped", n)
				}
			})
		})
		for _, d := range []time.Duration{0, -time.Second} {
			t.Run(c.name+"/d="+d.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					sc := c.new(t)
					if err := clockctx.Sleep(t.Context(), sc.clk, d); err != nil {
						t.Errorf("Sleep(ctx, clk, %v) = %v, want nil at once", d, err)
					}
					ended, cancel := context.WithCancel(t.Context())
					cancel()
					if err := clockctx.Sleep(ended, sc.clk, d); err != context.Canceled {
						t.Errorf("Sleep(ended ctx, clk, %v) = %v, want context.Canceled", d, err)
					}
					if n := sc.armed(); n > 0 {
						t.Errorf("Sleep(ctx, clk, %v) asked the clock for %d waits, want none", d, n)
					}
				})
			})
		}
		t.Run(c.name+"/ended ctx", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := c.new(t)
				ended, cancel := context.WithCancelCause(t.Context())
				cancel(errBudget)
				if err := clockctx.Sleep(ended, sc.clk, time.Hour); err != context.Canceled {
					t.Errorf("Sleep(ended ctx, clk, 1h) = %v, want context.Canceled at once", err)
				}
				if n, m := sc.timers(), sc.armed(); n > 0 || m > 0 {
					t.Errorf("Sleep(ended ctx, clk, 1h) left %d timers and asked for %d waits, want none", n, m)
				}
			})
		})
	}
}

// TestSleepTie: on a fakeclock.Clock, a deadline armed before the wait
// and due at the instant it ends wins, whether the advance waits for the
// woken code or not.
func TestSleepTie(t *testing.T) {
	for _, adv := range []struct {
		name    string
		advance func(clk *fakeclock.Clock, d time.Duration)
	}{
		{"Advance", (*fakeclock.Clock).Advance},
		{"Step", (*fakeclock.Clock).Step},
	} {
		t.Run(adv.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			ctx, cancel := clockctx.WithTimeout(t.Context(), clk, time.Second)
			defer cancel()
			res := sleeping(ctx, clk, time.Second)
			if err := clk.WaitForTimers(t.Context(), 2); err != nil {
				t.Fatal(err)
			}
			adv.advance(clk, time.Second)
			if err := <-res; err != context.DeadlineExceeded {
				t.Errorf("Sleep(ctx, clk, 1s) under a deadline at 1s = %v, want context.DeadlineExceeded", err)
			}
		})
	}
}

// readyClock is a clock whose timers have fired when NewTimer returns
// them, and which calls cancel first: Sleep then finds the wait over and
// its context ended at once.
type readyClock struct {
	clockwork.Clock
	cancel context.CancelFunc
}

func (c readyClock) NewTimer(time.Duration) clockwork.Timer {
	c.cancel()
	t := firedTimer{make(chan time.Time, 1)}
	t.c <- epoch
	return t
}

type firedTimer struct{ c chan time.Time }

func (t firedTimer) Chan() <-chan time.Time   { return t.c }
func (t firedTimer) Stop() bool               { return false }
func (t firedTimer) Reset(time.Duration) bool { return false }

// TestSleepBothReady: when the wait is over and ctx has ended by the time
// Sleep looks, it returns ctx's error, every time.
func TestSleepBothReady(t *testing.T) {
	for range 32 {
		ctx, cancel := context.WithCancel(t.Context())
		if err := clockctx.Sleep(ctx, readyClock{cancel: cancel}, time.Second); err != context.Canceled {
			t.Fatalf("Sleep(ctx, clk, 1s) with the wait over and ctx canceled = %v, want context.Canceled", err)
		}
	}
}

func TestSleepNilContext(t *testing.T) {
	want := "clockctx: Sleep: nil context"
	defer func() {
		if got := recover(); got != want {
			t.Errorf("Sleep(nil, clk, 1s) panicked with %v, want %q", got, want)
		}
	}()
	//lint:ignore SA1012 the panic on a nil context is what is tested
	clockctx.Sleep(nil, clockwork.NewFakeClockAt(epoch), time.Second)
}
