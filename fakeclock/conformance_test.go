package fakeclock_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// env is one implementation under the conformance table: the real time
// package inside a synctest bubble, or the fake clock.
type env struct {
	clk     clockwork.Clock
	advance func(d time.Duration) // move time by d and let everything settle
	start   time.Time

	mu  sync.Mutex
	log []string
}

func (e *env) logf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}

// at formats an instant as an offset from the start.
func (e *env) at(t time.Time) string { return "+" + schedfmt.Duration(t.Sub(e.start)) }

// recv logs what a non-blocking receive from ch finds.
func (e *env) recv(name string, ch <-chan time.Time) {
	select {
	case v := <-ch:
		e.logf("%s: value %s (now %s)", name, e.at(v), e.at(e.clk.Now()))
	default:
		e.logf("%s: nothing (now %s)", name, e.at(e.clk.Now()))
	}
}

func (e *env) transcript() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.log)
}

type conformanceCase struct {
	name string
	run  func(e *env)
}

var conformanceCases = []conformanceCase{
	{"timer fires at its deadline", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(999 * ms)
		e.recv("999ms", tm.Chan())
		e.advance(1 * ms)
		e.recv("1s", tm.Chan())
	}},
	{"After fires at its deadline", func(e *env) {
		ch := e.clk.After(time.Second)
		e.advance(999 * ms)
		e.recv("999ms", ch)
		e.advance(1 * ms)
		e.recv("1s", ch)
	}},
	{"Stop before the deadline", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.logf("Stop = %v", tm.Stop())
		e.advance(2 * time.Second)
		e.recv("after", tm.Chan())
		e.logf("second Stop = %v", tm.Stop())
	}},
	{"Stop after firing, value not received", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(time.Second)
		e.logf("Stop = %v", tm.Stop())
		e.recv("after Stop", tm.Chan())
	}},
	{"Stop after the value was received", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(time.Second)
		e.recv("fired", tm.Chan())
		e.logf("Stop = %v", tm.Stop())
	}},
	{"Reset while pending", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(500 * ms)
		e.logf("Reset = %v", tm.Reset(time.Second))
		e.advance(999 * ms)
		e.recv("1.499s", tm.Chan())
		e.advance(1 * ms)
		e.recv("1.5s", tm.Chan())
	}},
	{"Reset after firing leaves no stale value", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(time.Second)
		e.logf("Reset = %v", tm.Reset(time.Second))
		e.recv("after Reset", tm.Chan())
		e.advance(time.Second)
		e.recv("2s", tm.Chan())
	}},
	{"Reset after the value was received", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.advance(time.Second)
		e.recv("1s", tm.Chan())
		e.logf("Reset = %v", tm.Reset(time.Second))
		e.advance(time.Second)
		e.recv("2s", tm.Chan())
	}},
	{"Reset after Stop", func(e *env) {
		tm := e.clk.NewTimer(time.Second)
		e.logf("Stop = %v", tm.Stop())
		e.logf("Reset = %v", tm.Reset(time.Second))
		e.advance(time.Second)
		e.recv("1s", tm.Chan())
	}},
	{"zero and negative durations fire at once", func(e *env) {
		t0 := e.clk.NewTimer(0)
		tn := e.clk.NewTimer(-time.Second)
		a := e.clk.After(0)
		ran := make(chan string, 1)
		e.clk.AfterFunc(-time.Second, func() { ran <- e.at(e.clk.Now()) })
		e.clk.Sleep(0)
		e.clk.Sleep(-time.Second)
		e.logf("Sleep(0) and Sleep(-1s) returned at %s", e.at(e.clk.Now()))
		e.advance(0)
		e.logf("AfterFunc(-1s) ran at %s", <-ran)
		e.recv("NewTimer(0)", t0.Chan())
		e.recv("NewTimer(-1s)", tn.Chan())
		e.recv("After(0)", a)
	}},
	{"ticker drops ticks for a slow receiver and stays aligned", func(e *env) {
		tk := e.clk.NewTicker(time.Second)
		e.advance(3500 * ms)
		e.recv("3.5s first", tk.Chan())
		e.recv("3.5s second", tk.Chan())
		e.advance(500 * ms)
		e.recv("4s", tk.Chan())
		e.advance(time.Second)
		e.recv("5s", tk.Chan())
		tk.Stop()
	}},
	{"ticker delivers every tick to a ready receiver", func(e *env) {
		tk := e.clk.NewTicker(time.Second)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case v := <-tk.Chan():
					e.logf("tick %s", e.at(v))
				case <-stop:
					return
				}
			}
		}()
		e.advance(3 * time.Second)
		tk.Stop()
		close(stop)
		<-done
	}},
	{"ticker Reset while active does not double-register", func(e *env) {
		tk := e.clk.NewTicker(time.Second)
		e.advance(500 * ms)
		tk.Reset(2 * time.Second)
		e.advance(1500 * ms)
		e.recv("2s", tk.Chan())
		e.advance(500 * ms)
		e.recv("2.5s", tk.Chan())
		tk.Stop()
		e.advance(10 * time.Second)
		e.recv("after Stop", tk.Chan())
	}},
	{"stopped ticker can be reset", func(e *env) {
		tk := e.clk.NewTicker(time.Second)
		tk.Stop()
		e.advance(2 * time.Second)
		e.recv("stopped", tk.Chan())
		tk.Reset(time.Second)
		e.advance(time.Second)
		e.recv("3s", tk.Chan())
		tk.Stop()
	}},
	{"ticker Stop discards a tick nobody received", func(e *env) {
		tk := e.clk.NewTicker(time.Second)
		e.advance(time.Second)
		tk.Stop()
		e.recv("after Stop", tk.Chan())
	}},
	{"AfterFunc runs f in its own goroutine with a nil Chan", func(e *env) {
		release := make(chan struct{})
		tm := e.clk.AfterFunc(time.Second, func() {
			e.logf("f started at %s", e.at(e.clk.Now()))
			<-release // would deadlock the advance if f ran in it
			e.logf("f released")
		})
		e.logf("Chan() == nil: %v", tm.Chan() == nil)
		e.advance(time.Second)
		e.logf("advance returned")
		close(release)
		e.advance(0)
		e.logf("Stop after f ran = %v", tm.Stop())
	}},
	{"AfterFunc Stop and Reset", func(e *env) {
		tm := e.clk.AfterFunc(time.Second, func() { e.logf("f at %s", e.at(e.clk.Now())) })
		e.logf("Stop = %v", tm.Stop())
		e.advance(time.Second)
		e.logf("Reset = %v", tm.Reset(time.Second))
		e.advance(time.Second)
		e.logf("Reset after f ran = %v", tm.Reset(500*ms))
		e.advance(time.Second)
	}},
	{"a callback that calls the clock does not deadlock", func(e *env) {
		e.clk.AfterFunc(time.Second, func() {
			e.logf("outer at %s", e.at(e.clk.Now()))
			e.clk.AfterFunc(time.Second, func() {
				e.logf("inner at %s", e.at(e.clk.Now()))
			})
		})
		e.advance(2 * time.Second)
	}},
	{"Sleep wakes at its deadline", func(e *env) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			e.clk.Sleep(time.Second)
			e.logf("woke at %s", e.at(e.clk.Now()))
		}()
		e.advance(999 * ms)
		e.logf("999ms")
		e.advance(1 * ms)
		<-done
	}},
	{"Since and Until", func(e *env) {
		e.advance(1500 * ms)
		e.logf("Since(start) = %v, Until(start+2s) = %v", e.clk.Since(e.start), e.clk.Until(e.start.Add(2*time.Second)))
	}},
}

func TestConformance(t *testing.T) {
	for _, tc := range conformanceCases {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			synctest.Test(t, func(t *testing.T) {
				e := &env{clk: clockwork.NewRealClock(), start: time.Now()}
				e.advance = func(d time.Duration) {
					time.Sleep(d)
					synctest.Wait()
				}
				tc.run(e)
				want = e.transcript()
			})
			fake := func(t *testing.T) []string {
				clk := fakeclock.New(t)
				e := &env{clk: clk, start: clk.Now()}
				e.advance = func(d time.Duration) {
					t.Helper()
					if err := clk.AdvanceAndDrain(t.Context(), d); err != nil {
						t.Fatalf("AdvanceAndDrain(%v) = %v", d, err)
					}
				}
				tc.run(e)
				return e.transcript()
			}
			got := fake(t)
			if !slices.Equal(got, want) {
				t.Errorf("fake clock outside a bubble:\n\t%s\nwant (time package):\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
			}
			synctest.Test(t, func(t *testing.T) {
				got := fake(t)
				if !slices.Equal(got, want) {
					t.Errorf("fake clock inside a bubble:\n\t%s\nwant (time package):\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
				}
			})
		})
	}
}

// TestEqualDeadlinesFireInArmingOrder pins what the runtime leaves
// unspecified: timers due at the same instant fire in the order they were
// armed, each settled before the next.
func TestEqualDeadlinesFireInArmingOrder(t *testing.T) {
	clk := fakeclock.New(t)
	e := &env{clk: clk, start: clk.Now()}
	for _, name := range []string{"a", "b", "c", "d"} {
		clk.AfterFunc(time.Second, func() { e.logf("%s", name) })
	}
	tm := clk.AfterFunc(2*time.Second, func() { e.logf("reset") })
	tm.Reset(time.Second) // armed last, so it fires last
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	if got, want := e.transcript(), []string{"a", "b", "c", "d", "reset"}; !slices.Equal(got, want) {
		t.Errorf("firing order %v, want %v", got, want)
	}
}

func TestNewTickerPanics(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "fakeclock: NewTicker: non-positive interval 0s"},
		{-time.Second, "fakeclock: NewTicker: non-positive interval -1s"},
	} {
		clk := fakeclock.New(t)
		func() {
			defer func() {
				if got := recover(); got != tc.want {
					t.Errorf("NewTicker(%v) panicked with %v, want %q", tc.d, got, tc.want)
				}
			}()
			clk.NewTicker(tc.d)
		}()
	}
	clk := fakeclock.New(t)
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	defer func() {
		want := "fakeclock: Ticker.Reset: non-positive interval 0s"
		if got := recover(); got != want {
			t.Errorf("Ticker.Reset(0) panicked with %v, want %q", got, want)
		}
	}()
	tk.Reset(0)
}
