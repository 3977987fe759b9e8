package fakeclock_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
)

func TestAdvanceClockworkParity(t *testing.T) {
	clk := fakeclock.New(t)
	t2 := clk.NewTimer(2 * time.Second)
	t1 := clk.NewTimer(time.Second)
	t5 := clk.NewTimer(5 * time.Second)
	defer t5.Stop()
	clk.Advance(3 * time.Second)
	if got, want := clk.Since(fakeclock.Epoch), 3*time.Second; got != want {
		t.Errorf("Now after Advance(3s) = +%v, want +%v", got, want)
	}
	for _, tc := range []struct {
		name string
		ch   <-chan time.Time
		want time.Duration
	}{{"1s timer", t1.Chan(), time.Second}, {"2s timer", t2.Chan(), 2 * time.Second}} {
		select {
		case v := <-tc.ch:
			if got := v.Sub(fakeclock.Epoch); got != tc.want {
				t.Errorf("%s received +%v, want +%v (its deadline)", tc.name, got, tc.want)
			}
		default:
			t.Errorf("%s did not fire", tc.name)
		}
	}
	if c := clk.Counters(); c.Fired != 2 || c.Registered != 3 {
		t.Errorf("Counters() = %+v, want Fired 2, Registered 3", c)
	}
}

func TestAdvanceNegative(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	site := nextLine()
	clk.Advance(-time.Second)
	if got := clk.Now(); !got.Equal(fakeclock.Epoch) {
		t.Errorf("Now after Advance(-1s) = %v, want %v (unchanged)", got, fakeclock.Epoch)
	}
	err := clk.AdvanceAndDrain(t.Context(), -time.Second)
	wantErr := "fakeclock: AdvanceAndDrain(-1s): negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)"
	if err == nil || err.Error() != wantErr {
		t.Errorf("AdvanceAndDrain(-1s) = %v, want %q", err, wantErr)
	}
	got := ft.finish()
	want := []string{"fakeclock: Advance(-1s) at " + site + ": negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)"}
	if !slices.Equal(got, want) {
		t.Errorf("reported %q, want %q", got, want)
	}
}

// A whole ladder in one advance: the retries armed inside the window fire
// in the same call, each at its own deadline.
func TestStepDrivesLadder(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	clk.Step(1500 * ms)
	<-done
	if got := rec.get(); !slices.Equal(got, wantLadder) {
		t.Errorf("attempts at %v, want %v", got, wantLadder)
	}
}

// Stepping to each next deadline in turn fires what is due there, in the
// order it was armed.
func TestStepToEachDeadline(t *testing.T) {
	clk := fakeclock.New(t)
	e := &env{clk: clk, start: clk.Now()}
	clk.AfterFunc(time.Second, func() { e.logf("a at %s", e.at(clk.Now())) })
	clk.AfterFunc(3*time.Second, func() { e.logf("c at %s", e.at(clk.Now())) })
	clk.AfterFunc(time.Second, func() { e.logf("b at %s", e.at(clk.Now())) })
	var moved []time.Duration
	for {
		next, ok := clk.NextDeadline()
		if !ok {
			break
		}
		d := next.Sub(clk.Now())
		clk.Step(d)
		moved = append(moved, d)
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; !slices.Equal(moved, want) {
		t.Errorf("moved %v, want %v", moved, want)
	}
	if got, want := e.transcript(), []string{"a at +1s", "b at +1s", "c at +3s"}; !slices.Equal(got, want) {
		t.Errorf("fired %v, want %v", got, want)
	}
}

// One long step runs a ladder to its end, an hour's wait included.
func TestLongStepRunsToTheEnd(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms, time.Hour)
	clk.Step(2 * time.Hour)
	<-done
	if got, want := rec.get(), []time.Duration{0, 500 * ms, 1500 * ms, time.Hour + 1500*ms}; !slices.Equal(got, want) {
		t.Errorf("attempts at %v, want %v", got, want)
	}
}

func TestDrainLoopLimit(t *testing.T) {
	// A ticker nobody reads skips the ticks it would drop; one whose every
	// tick is received fires each period, 3,600,000 times in an hour.
	t.Run("ticker", func(t *testing.T) {
		clk := fakeclock.New(t, fakeclock.WithLoopLimit(50))
		tk, site := clk.NewTicker(time.Millisecond), here()
		defer tk.Stop()
		done := make(chan struct{})
		t.Cleanup(func() { close(done) })
		go func() {
			for {
				select {
				case <-tk.Chan():
				case <-done:
					return
				}
			}
		}()
		err := clk.AdvanceAndDrain(t.Context(), time.Hour)
		want := "fakeclock: AdvanceAndDrain(1h): loop limit 50 exceeded: timers keep coming due (a zero-delay timer re-armed forever, or a live ticker)" +
			"\nfired:\n    Ticker armed at " + site +
			"\npending timers:\n    Ticker every 1ms, next at +51ms, armed at " + site
		if !errors.Is(err, fakeclock.ErrLoopLimit) || err.Error() != want {
			t.Errorf("AdvanceAndDrain(1h) = %v, want ErrLoopLimit and %q", err, want)
		}
	})
	for _, bubble := range []bool{false, true} {
		name := map[bool]string{false: "zero-delay re-arm", true: "zero-delay re-arm in a bubble"}[bubble]
		t.Run(name, func(t *testing.T) {
			test := func(t *testing.T) {
				clk := fakeclock.New(t, fakeclock.WithLoopLimit(100), fakeclock.WithoutLeakCheck())
				var site string
				var again func()
				armed := make(chan struct{})
				again = func() { clk.AfterFunc(0, again) }
				go func() {
					<-armed
					site = nextLine()
					clk.AfterFunc(time.Millisecond, again)
				}()
				close(armed)
				if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
					t.Fatal(err)
				}
				err := clk.AdvanceAndDrain(t.Context(), time.Second)
				if !errors.Is(err, fakeclock.ErrLoopLimit) || !strings.Contains(err.Error(), "loop limit 100 exceeded") ||
					!strings.Contains(err.Error(), "AfterFunc armed at advance_test.go:") || !strings.Contains(err.Error(), "AfterFunc armed at "+site) {
					t.Errorf("AdvanceAndDrain(1s) = %v, want ErrLoopLimit naming the AfterFunc call sites", err)
				}
				clk.Close() // stop the re-arming before the bubble ends
			}
			if bubble {
				synctest.Test(t, test)
			} else {
				test(t)
			}
		})
	}
}

// TestAdvanceLoopLimit: Advance, which does not wait for the code it wakes,
// stops at the loop limit too, and reports it through the clock's t.
func TestAdvanceLoopLimit(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft, fakeclock.WithLoopLimit(3), fakeclock.WithoutLeakCheck())
	var site string
	for i := range 4 {
		_, site = clk.NewTimer(time.Duration(i+1)*ms), here()
	}
	clk.Advance(10 * ms)
	if got, want := clk.Since(fakeclock.Epoch), 3*ms; got != want {
		t.Errorf("Now after Advance(10ms) stopped at the loop limit = +%v, want +%v (the last timer fired)", got, want)
	}
	got := ft.finish()
	want := []string{"fakeclock: Advance(10ms): loop limit 3 exceeded: timers keep coming due (a zero-delay timer re-armed forever, or a live ticker)" +
		"\nfired:\n    Timer armed at " + site +
		"\npending timers:\n    Timer 4ms, due at +4ms, armed at " + site}
	if !slices.Equal(got, want) {
		t.Errorf("reported %q, want %q", got, want)
	}
}

func TestSet(t *testing.T) {
	clk := fakeclock.New(t)
	tm := clk.NewTimer(time.Second)
	defer tm.Stop()
	ctx, cancel := clk.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	clk.Set(fakeclock.Epoch.Add(time.Hour))
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tm.Chan():
		t.Error("Set fired a timer")
	default:
	}
	next, ok := clk.NextDeadline()
	if got, want := next.Sub(fakeclock.Epoch), time.Hour+time.Second; !ok || got != want {
		t.Errorf("NextDeadline() after Set(+1h) = +%v, %v, want +%v, true", got, ok, want)
	}
	if d, _ := ctx.Deadline(); d.Sub(fakeclock.Epoch) != time.Hour+2*time.Second {
		t.Errorf("context Deadline() after Set(+1h) = +%v, want +1h0m2s", d.Sub(fakeclock.Epoch))
	}
	// Backwards, too.
	clk.Set(fakeclock.Epoch.Add(-time.Hour))
	if got := clk.Since(fakeclock.Epoch); got != -time.Hour {
		t.Errorf("Since(Epoch) after Set(-1h) = %v, want -1h", got)
	}
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-tm.Chan():
		if got := v.Sub(fakeclock.Epoch); got != -time.Hour+time.Second {
			t.Errorf("timer fired with +%v, want -59m59s", got)
		}
	default:
		t.Error("timer did not fire 1s after Set")
	}
}

func TestWaitForTimers(t *testing.T) {
	clk := fakeclock.New(t)
	go clk.Sleep(time.Second)
	if err := clk.WaitForTimers(t.Context(), 1); err != nil {
		t.Fatalf("WaitForTimers(1) = %v, want nil", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 0) // ended: no real wait
	defer cancel()
	err := clk.WaitForTimers(ctx, 2)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "fakeclock: WaitForTimers(2) = 1 pending, want >= 2: context deadline exceeded\npending timers:\n    Sleep 1s, due at +1s") {
		t.Errorf("WaitForTimers(2) = %v, want a DeadlineExceeded that lists the sleep", err)
	}
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		clk := fakeclock.New(t)
		err := clk.WaitForTimers(t.Context(), 1)
		want := "fakeclock: WaitForTimers(1) = 0 pending, want >= 1: no timer was armed within the settle budget\npending timers: none"
		if !errors.Is(err, fakeclock.ErrNotSettled) || err.Error() != want {
			t.Errorf("WaitForTimers(1) in an idle bubble = %v, want ErrNotSettled and %q", err, want)
		}
	})
}

func TestCountersWaitsPending(t *testing.T) {
	clk := fakeclock.New(t)
	var sites []string
	tm, s := clk.NewTimer(time.Second), here()
	sites = append(sites, s)
	tk, s := clk.NewTicker(250*ms), here()
	sites = append(sites, s)
	clk.AfterFunc(-time.Second, func() {})
	sites = append(sites, nextLine())
	ctx, cancel := clk.WithTimeout(t.Context(), 3*time.Second)
	after, s := clk.After(2*time.Second), here()
	sites = append(sites, s)
	_ = after
	tm.Stop()
	sites[0] = nextLine()
	tm.Reset(1500 * ms)
	want := []string{
		"Ticker every 250ms, next at +250ms, armed at " + sites[1],
		"Timer 1.5s, due at +1.5s, armed at " + sites[0],
		"After 2s, due at +2s, armed at " + sites[3],
		"Context 3s, due at +3s, armed at " + sites[2],
	}
	var got []string
	for _, w := range clk.Pending() {
		got = append(got, w.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("Pending():\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// The waits of the loop: not the timer stopped before it fired, the
	// ticker or the context's deadline.
	if _, _, got, _ := clk.RetrySchedule(); !slices.Equal(got, []time.Duration{-time.Second, 2 * time.Second, 1500 * ms}) {
		t.Errorf("RetrySchedule() waits = %v, want [-1s 2s 1.5s]", got)
	}
	if err := clk.AdvanceAndDrain(t.Context(), 600*ms); err != nil {
		t.Fatal(err)
	}
	tk.Stop()
	cancel()
	if got, want := clk.Counters(), (fakeclock.Counters{Registered: 5, Fired: 1 + 2, Stopped: 3, Reset: 1}); got != want {
		t.Errorf("Counters() = %+v, want %+v", got, want)
	}
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("ctx.Err() after cancel = %v, want context.Canceled", err)
	}
	if err := clk.AdvanceAndDrain(t.Context(), 2*time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[fakeclock.Kind]string{
		fakeclock.KindSleep: "Sleep", fakeclock.KindAfter: "After", fakeclock.KindTimer: "Timer",
		fakeclock.KindTicker: "Ticker", fakeclock.KindAfterFunc: "AfterFunc", fakeclock.KindContext: "Context",
		fakeclock.Kind(0): "Kind(0)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestConcurrentAdvanceIsAnError(t *testing.T) {
	clk := fakeclock.New(t)
	errc := make(chan error, 1)
	clk.AfterFunc(time.Second, func() { errc <- clk.AdvanceAndDrain(context.Background(), time.Second) })
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "another advance of this clock is in progress") {
		t.Errorf("AdvanceAndDrain from a callback during a drain = %v, want the concurrent-advance error", err)
	}
}

func TestWithTime(t *testing.T) {
	t0 := time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC)
	clk := fakeclock.New(t, fakeclock.WithTime(t0))
	if got := clk.Now(); !got.Equal(t0) {
		t.Errorf("Now() = %v, want %v", got, t0)
	}
}

func TestWithSettle(t *testing.T) {
	var calls int
	clk := fakeclock.New(t, fakeclock.WithSettle(func(ctx context.Context) error {
		calls++
		if calls == 3 {
			return errors.New("custom settle gave up")
		}
		return nil
	}))
	tm := clk.AfterFunc(time.Second, func() {})
	defer tm.Stop()
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err == nil || err.Error() != "fakeclock: AdvanceAndDrain(1s): custom settle gave up" {
		t.Errorf("AdvanceAndDrain(1s) = %v, want the custom settle's error", err)
	}
}

// TestLargeAdvanceIsO1PerTicker: a ticker nobody reads costs at most three
// firings per advance (the tick it sends, the first it drops, one at the
// end), not one per period, however far the clock moves.
func TestLargeAdvanceIsO1PerTicker(t *testing.T) {
	clk := fakeclock.New(t)
	tk := clk.NewTicker(5 * time.Second)
	defer tk.Stop()
	const far = 180 * 24 * time.Hour
	clk.Advance(far)
	if got := clk.Counters().Fired; got > 3 {
		t.Errorf("Advance(%v) with a 5s ticker nobody reads fired %d times, want at most 3", far, got)
	}
	next, _ := clk.NextDeadline()
	if got, want := next.Sub(fakeclock.Epoch), far+5*time.Second; got != want {
		t.Errorf("next tick at +%v, want +%v (still on the 5s grid)", got, want)
	}
	if err := clk.AdvanceAndDrain(t.Context(), far); err != nil {
		t.Fatal(err)
	}
	if got := clk.Counters().Fired; got > 6 {
		t.Errorf("AdvanceAndDrain(%v) with a 5s ticker nobody reads fired %d times in all, want at most 6", far, got)
	}
	if v := <-tk.Chan(); v.Sub(fakeclock.Epoch) != 5*time.Second {
		t.Errorf("first tick received = +%v, want +5s (later ticks were dropped)", v.Sub(fakeclock.Epoch))
	}
}

func TestAdvanceFromAnotherBubble(t *testing.T) {
	clk := fakeclock.New(t)
	synctest.Test(t, func(t *testing.T) {
		err := clk.AdvanceAndDrain(t.Context(), time.Second)
		if err == nil || !strings.Contains(err.Error(), "made outside a synctest bubble") {
			t.Errorf("AdvanceAndDrain from a bubble on a clock made outside = %v, want an error saying so", err)
		}
	})
}

// TestAdvanceOutsideItsBubble: a clock made inside a bubble and advanced
// from outside it is refused by every advance that settles, naming the
// mix-up, and nothing moves; Step fails the test with the same error.
func TestAdvanceOutsideItsBubble(t *testing.T) {
	st := &stopT{}
	var clk *fakeclock.Clock
	synctest.Test(t, func(*testing.T) {
		clk = fakeclock.New(st)
		clk.AfterFunc(time.Second, func() {})
	})
	// The clock's channels belong to the bubble, which has ended: Close,
	// or Stop of a channel timer, would be a fatal error out here, so the
	// clock is left for the garbage collector.
	const why = ": the clock was made inside a synctest bubble and is advanced from outside it; advance it from inside that bubble, or make it outside the bubble"
	for _, tc := range []struct {
		op      string
		advance func() error
	}{
		{"AdvanceAndDrain(1s)", func() error { return clk.AdvanceAndDrain(t.Context(), time.Second) }},
	} {
		want := "fakeclock: " + tc.op + why
		if err := tc.advance(); err == nil || err.Error() != want {
			t.Errorf("%s outside the clock's bubble = %v, want %q", tc.op, err, want)
		}
	}
	returned, calls := st.run(func() { clk.Step(time.Second) })
	if want := []string{"Helper", "Fatalf: fakeclock: Step(1s)" + why}; returned || !slices.Equal(calls, want) {
		t.Errorf("Step(1s) outside the clock's bubble: returned %v, called %q, want it to stop the test after %q", returned, calls, want)
	}
	if got := clk.Since(fakeclock.Epoch); got != 0 {
		t.Errorf("the clock moved %v, want 0", got)
	}
	if got := clk.Counters().Fired; got != 0 || len(clk.Pending()) != 1 {
		t.Errorf("%d timers fired, %d pending, want none fired and the 1s AfterFunc pending", got, len(clk.Pending()))
	}
}

// TestStep: Step drives a ladder as AdvanceAndDrain does, boundaries
// included.
func TestStep(t *testing.T) {
	clk := fakeclock.New(t)
	rec := &attempts{}
	done := ladder(clk, rec, 500*ms, 1000*ms)
	for _, step := range []struct {
		d    time.Duration
		want int
	}{{0, 1}, {499 * ms, 1}, {ms, 2}, {999 * ms, 2}, {ms, 3}} {
		clk.Step(step.d)
		if got := rec.count(); got != step.want {
			t.Errorf("after Step(%v) to +%v: %d attempts, want %d", step.d, clk.Since(fakeclock.Epoch), got, step.want)
		}
	}
	<-done
	if got := rec.get(); !slices.Equal(got, wantLadder) {
		t.Errorf("attempts at %v, want %v", got, wantLadder)
	}
}

// TestStepFails: when the advance fails, Step marks itself a helper, fails
// the test with the advance's error and stops it.
func TestStepFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    time.Duration
		// start may begin something the Step then trips over; the test
		// closes release after the Step and then calls wait.
		start   func(clk *fakeclock.Clock, release chan struct{}) (wait func())
		settle  func(ctx context.Context) error
		wantErr string
	}{
		{
			name:    "negative duration",
			d:       -time.Second,
			wantErr: "fakeclock: Step(-1s): negative duration, want >= 0 (the clock does not go backwards; Set jumps the wall time)",
		},
		{
			name:    "not settled",
			d:       time.Second,
			settle:  func(context.Context) error { return errors.New("the code under test did not settle") },
			wantErr: "fakeclock: Step(1s): the code under test did not settle",
		},
		{
			name: "another advance in progress",
			d:    time.Second,
			start: func(clk *fakeclock.Clock, release chan struct{}) func() {
				entered := make(chan struct{})
				clk.AfterFunc(time.Second, func() { close(entered); <-release })
				errc := make(chan error, 1)
				go func() { errc <- clk.AdvanceAndDrain(context.Background(), time.Second) }()
				<-entered
				return func() {
					if err := <-errc; err != nil {
						t.Errorf("the advance in progress failed: %v", err)
					}
				}
			},
			wantErr: "fakeclock: Step(1s): another advance of this clock is in progress (advances must not run concurrently, nor from code the advance wakes)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &stopT{}
			var opts []fakeclock.Option
			if tc.settle != nil {
				opts = append(opts, fakeclock.WithSettle(tc.settle))
			}
			clk := fakeclock.New(st, opts...)
			release, wait := make(chan struct{}), func() {}
			if tc.start != nil {
				wait = tc.start(clk, release)
			}
			returned, calls := st.run(func() { clk.Step(tc.d) })
			close(release)
			wait()
			if returned {
				t.Errorf("Step(%v) returned, want it to stop the test", tc.d)
			}
			if want := []string{"Helper", "Fatalf: " + tc.wantErr}; !slices.Equal(calls, want) {
				t.Errorf("Step(%v) called %q, want %q", tc.d, calls, want)
			}
			clk.Close()
		})
	}
}
