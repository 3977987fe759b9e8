package fakeclock

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/settle"
)

// Tests aimed at the mutants of testdata/mutants.txt. They are in package
// fakeclock, so they run before the package's other tests, and none of them
// waits on the code under test without a bound: a clock that fails one of
// these contracts makes many of the other tests hang until go test's
// timeout, and the mutation gate (which runs with -failfast) stops at the
// first failure here instead.

// start2000 is the instant a clock starts at: 2000-01-01T00:00:00Z.
var start2000 = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// recT is a FixtureT that records what the clock reports and runs its
// cleanups when the test says so.
type recT struct {
	mu       sync.Mutex
	errs     []string
	logs     []string
	cleanups []func()
}

func (r *recT) Helper() {}

func (r *recT) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *recT) logged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.logs...)
}
func (r *recT) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

func (r *recT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recT) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func (r *recT) FailNow() { r.Errorf("FailNow") }

func (r *recT) reports() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// finish runs the cleanups, last registered first, and returns every
// report.
func (r *recT) finish() []string {
	r.mu.Lock()
	fs := r.cleanups
	r.cleanups = nil
	r.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	return r.reports()
}

// line returns the line of its caller.
func line() string {
	_, _, l, _ := runtime.Caller(1)
	return strconv.Itoa(l)
}

func fired(ch <-chan time.Time) (time.Time, bool) {
	select {
	case v := <-ch:
		return v, true
	default:
		return time.Time{}, false
	}
}

// TestFiresAtItsDeadlineNotBefore: a 500ms timer has not fired after 499ms
// and fires at exactly 500ms, with Advance and with Step; Now is then
// +500ms.
func TestFiresAtItsDeadlineNotBefore(t *testing.T) {
	for _, name := range []string{"Advance", "Step"} {
		clk := New(t)
		advance := clk.Advance
		if name == "Step" {
			advance = clk.Step
		}
		tm := clk.NewTimer(500 * time.Millisecond)
		advance(499 * time.Millisecond)
		if v, ok := fired(tm.Chan()); ok {
			t.Errorf("%s: a 500ms timer fired after 499ms (value %v)", name, v)
		}
		advance(time.Millisecond)
		if v, ok := fired(tm.Chan()); !ok || !v.Equal(start2000.Add(500*time.Millisecond)) {
			t.Errorf("%s: a 500ms timer after 500ms: fired=%v value %v, want fired at 2000-01-01T00:00:00.5Z", name, ok, v)
		}
		if got, want := clk.Now(), start2000.Add(500*time.Millisecond); !got.Equal(want) {
			t.Errorf("%s: Now = %v, want %v", name, got, want)
		}
	}
}

// TestNowMovesToTheEndWithNothingDue: an advance of 1s with nothing
// pending moves Now by 1s.
func TestNowMovesToTheEndWithNothingDue(t *testing.T) {
	clk := New(t)
	clk.Advance(time.Second)
	clk.Step(time.Second)
	if err := clk.AdvanceAndDrain(t.Context(), time.Second); err != nil {
		t.Fatal(err)
	}
	if got, want := clk.Now(), start2000.Add(3*time.Second); !got.Equal(want) {
		t.Errorf("Now after Advance, Step and AdvanceAndDrain of 1s each = %v, want %v", got, want)
	}
}

// waitForTimers waits until n timers are pending on clk, for at most 2s
// of real time.
func waitForTimers(clk *Clock, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return clk.WaitForTimers(ctx, n)
}

// TestWaitForTimersWakes: WaitForTimers(2) returns once a second timer is
// armed, and not with one.
func TestWaitForTimersWakes(t *testing.T) {
	clk := New(t)
	a := clk.NewTimer(time.Second)
	defer a.Stop()
	if err := waitForTimers(clk, 1); err != nil {
		t.Errorf("WaitForTimers(1) with 1 timer pending = %v, want nil", err)
	}
	armed := make(chan clockwork.Timer, 1)
	go func() { armed <- clk.NewTimer(time.Second) }()
	if err := waitForTimers(clk, 2); err != nil {
		t.Errorf("WaitForTimers(2) while a second timer is armed = %v, want nil", err)
	}
	(<-armed).Stop()
}

// TestZeroAndNegativeFireAtOnce: a timer or an After of 0 or less fires
// when it is made, at the clock's time.
func TestZeroAndNegativeFireAtOnce(t *testing.T) {
	clk := New(t)
	for _, d := range []time.Duration{0, -time.Second} {
		if v, ok := fired(clk.NewTimer(d).Chan()); !ok || !v.Equal(start2000) {
			t.Errorf("NewTimer(%v): fired=%v value %v, want fired at once at the clock's time", d, ok, v)
		}
		if v, ok := fired(clk.After(d)); !ok || !v.Equal(start2000) {
			t.Errorf("After(%v): fired=%v value %v, want fired at once at the clock's time", d, ok, v)
		}
	}
}

// TestStepSettlesBeforeAndAfterEachFiring: a draining advance settles the
// code before it fires anything and after each timer it fires; a d of 0
// only settles.
func TestStepSettlesBeforeAndAfterEachFiring(t *testing.T) {
	var settles atomic.Int32
	clk := New(t, WithSettle(func(context.Context) error {
		settles.Add(1)
		return nil
	}))
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} {
		clk.NewTimer(d)
	}
	clk.Step(3 * time.Second)
	if got := settles.Load(); got != 4 {
		t.Errorf("Step(3s) firing 3 timers settled %d times, want 4 (once before, once after each)", got)
	}
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Errorf("AdvanceAndDrain(0) = %v, want nil", err)
	}
	if got := settles.Load(); got != 5 {
		t.Errorf("AdvanceAndDrain(0) settled %d times, want once", got-4)
	}
}

// TestLeakCheckReportsAnAfterAGoroutineWaitsOn: an After that a goroutine
// still waits on is a leak.
func TestLeakCheckReportsAnAfterAGoroutineWaitsOn(t *testing.T) {
	rt := &recT{}
	clk := New(rt)
	quit, done := make(chan struct{}), make(chan struct{})
	armed := make(chan string, 1)
	go func() {
		defer close(done)
		l := line()
		armed <- l
		select {
		case <-clk.After(time.Hour):
		case <-quit:
		}
	}()
	at := <-armed
	clk.VerifyIdle()
	close(quit)
	<-done
	errs := rt.finish()
	want := "After 1h, due at +1h, armed at mutants_kill_test.go:" + strconv.Itoa(atoi(at)+3)
	if len(errs) != 1 || !strings.Contains(errs[0], want) {
		t.Errorf("reported %q, want one report naming %q", errs, want)
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// weakOf returns a weak pointer to the channel ch.
func weakOf(ch any) weak.Pointer[hchan] {
	return weak.Make((*hchan)(reflect.ValueOf(ch).UnsafePointer()))
}

// TestLeakCheckDropsAReclaimedAfter: an After whose channel nothing
// references is neither kept alive by the clock nor, once the collector
// has reclaimed it, reported or noted by the leak check. When the
// collector keeps a channel nothing references, there is nothing to check.
func TestLeakCheckDropsAReclaimedAfter(t *testing.T) {
	rt := &recT{}
	clk := New(rt)
	var after, control weak.Pointer[hchan]
	func() {
		after = weakOf(clk.After(time.Hour))
		control = weakOf(make(chan time.Time, 1))
	}()
	runtime.GC()
	if control.Value() != nil {
		rt.finish()
		t.Skip("the collector kept a channel nothing references: nothing to check")
	}
	if after.Value() != nil {
		rt.finish()
		t.Fatal("the collector reclaimed a channel nothing references, but not the one After returned: the clock keeps it alive")
	}
	errs := rt.finish()
	if logs := rt.logged(); len(errs) != 0 || len(logs) != 0 {
		t.Errorf("a reclaimed After: reported %q, logged %q; want nothing", errs, logs)
	}
}

// TestWithTimeoutParentEnds: a fake context ends when its parent does,
// at once for a parent of this package and for one that has already
// ended.
func TestWithTimeoutParentEnds(t *testing.T) {
	clk := New(t)
	parent, cancelParent := clk.WithTimeout(context.Background(), 2*time.Hour)
	ctx, cancel := clk.WithTimeout(parent, time.Hour)
	defer cancel()
	cancelParent()
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("after the fake parent's cancel: Err = %v, want context.Canceled", err)
	}
	ended, cancelEnded := context.WithCancel(context.Background())
	cancelEnded()
	ctx2, cancel2 := clk.WithTimeout(ended, time.Hour)
	defer cancel2()
	if err := ctx2.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("with an ended parent: Err = %v, want context.Canceled", err)
	}
}

// TestWithTimeoutFromNow: a timeout runs from the clock's time when it is
// made, not from the clock's start.
func TestWithTimeoutFromNow(t *testing.T) {
	clk := New(t)
	clk.Step(time.Second)
	ctx, cancel := clk.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	clk.Step(499 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Errorf("at +1.499s, 499ms into a 500ms timeout: Err = %v, want nil", err)
	}
	clk.Step(time.Millisecond)
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("at +1.5s, 500ms into a 500ms timeout: Err = %v, want context.DeadlineExceeded", err)
	}
}

// TestClosedClockParksNobody: on a closed clock a new context ends at
// once with cause ErrClosed, and a new ticker never ticks.
func TestClosedClockParksNobody(t *testing.T) {
	clk := New(t)
	clk.Close()
	ctx, cancel := clk.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if err, cause := ctx.Err(), context.Cause(ctx); !errors.Is(err, context.Canceled) || !errors.Is(cause, ErrClosed) {
		t.Errorf("a context made on a closed clock: Err = %v, Cause = %v, want context.Canceled and ErrClosed", err, cause)
	}
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	if v, ok := fired(tk.Chan()); ok {
		t.Errorf("a ticker made on a closed clock ticked (%v), want never", v)
	}
}

// TestPendingTiesInArmingOrder: Pending lists the timers due at the same
// instant in the order they were armed.
func TestPendingTiesInArmingOrder(t *testing.T) {
	clk := New(t)
	a := clk.NewTimer(time.Second)
	defer a.Stop()
	b := clk.AfterFunc(time.Second, func() {})
	defer b.Stop()
	var kinds []string
	for _, w := range clk.Pending() {
		kinds = append(kinds, w.Kind.String())
	}
	if got, want := strings.Join(kinds, " "), "Timer AfterFunc"; got != want {
		t.Errorf("Pending() kinds = %s, want %s", got, want)
	}
}

// TestVerifyIdleReportsOnce: a leak VerifyIdle reported is not reported
// again by the check at the end of the test.
func TestVerifyIdleReportsOnce(t *testing.T) {
	rt := &recT{}
	clk := New(rt)
	_, at := clk.NewTimer(time.Hour), line()
	clk.VerifyIdle()
	errs := rt.finish() // the timer still pending

	want := "fakeclock: 1 timer still pending on the clock at VerifyIdle (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):\n    Timer 1h, due at +1h, armed at mutants_kill_test.go:" + at
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("reported %q, want only %q", errs, want)
	}
}

// TestTickerReset: after Reset(3s) a 1s ticker ticks every 3s.
func TestTickerReset(t *testing.T) {
	clk := New(t)
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	tk.Reset(3 * time.Second)
	clk.Advance(3 * time.Second)
	if v, ok := fired(tk.Chan()); !ok || !v.Equal(start2000.Add(3*time.Second)) {
		t.Errorf("after Reset(3s) and 3s: tick %v (%v), want one at +3s", v, ok)
	}
	p := clk.Pending()
	if len(p) != 1 || p[0].Period != 3*time.Second || !p[0].Deadline.Equal(start2000.Add(6*time.Second)) {
		t.Errorf("Pending() = %+v, want the ticker every 3s, next at +6s", p)
	}
}

// TestTickerDroppedTickResumesAtTheNextEvent: a ticker whose tick nobody
// received skips the ticks it would drop, but not past the next instant
// anything else happens: when an AfterFunc armed before it receives the
// old tick at +5s, the ticker's +5s tick is sent.
func TestTickerDroppedTickResumesAtTheNextEvent(t *testing.T) {
	clk := New(t)
	var ticks <-chan time.Time
	got := make(chan time.Time, 1)
	clk.AfterFunc(5*time.Second, func() { got <- <-ticks })
	tk := clk.NewTicker(time.Second)
	defer tk.Stop()
	ticks = tk.Chan()
	clk.Step(10 * time.Second)
	if v, ok := fired(got); !ok || !v.Equal(start2000.Add(time.Second)) {
		t.Errorf("the AfterFunc at +5s received %v (%v), want the tick of +1s", v, ok)
	}
	if v, ok := fired(ticks); !ok || !v.Equal(start2000.Add(5*time.Second)) {
		t.Errorf("after Step(10s) the ticker's channel holds %v (%v), want the tick of +5s", v, ok)
	}
}

// TestSiteInThePackagesOwnTests: the package's own tests are user code: a
// timer armed here is armed at this file's line, and its deadline before
// the clock's start (after Set) is printed as negative.
func TestSiteInThePackagesOwnTests(t *testing.T) {
	clk := New(t)
	tm, at := clk.NewTimer(time.Second), line()
	defer tm.Stop()
	clk.Set(start2000.Add(-2 * time.Second))
	p := clk.Pending()
	if want := "Timer 1s, due at -1s, armed at mutants_kill_test.go:" + at; len(p) != 1 || p[0].String() != want {
		t.Errorf("Pending() = %v, want [%s]", p, want)
	}
}

// lookStuck runs the watchdog's look until it finds the goroutine that
// runs the test parked on c, for at most 2s of real time.
func lookStuck(c *Clock) (settle.Goroutine, string, bool) {
	for limit := time.Now().Add(2 * time.Second); time.Now().Before(limit); runtime.Gosched() {
		c.mu.Lock()
		armers := make(map[string]site)
		for t := range c.timers.all {
			if fn := t.site.function(); fn != "" {
				armers[fn] = t.site
			}
		}
		c.mu.Unlock()
		if g, at, ok := c.stuckTester(armers); ok {
			return g, at, true
		}
	}
	return settle.Goroutine{}, "", false
}

// TestWatchdogSeesClockctxSleep: the goroutine that runs the test, parked
// in clockctx.Sleep on the clock, is found by the watchdog's look, waiting
// in the select of the function that armed the timer.
func TestWatchdogSeesClockctxSleep(t *testing.T) {
	rt := &recT{}
	clk := New(rt, WithoutLeakCheck())
	defer rt.finish()
	self, _ := goheader.Current()
	type look struct {
		id int64
		at string
	}
	looked := make(chan look, 1)
	go func() {
		defer clk.Close() // ends the sleep whatever the look found
		g, at, _ := lookStuck(clk)
		looked <- look{g.ID, at}
	}()
	at := line()
	_ = clockctx.Sleep(context.Background(), clk, time.Second)
	l := <-looked
	want := "waits in a select (at mutants_kill_test.go:" + strconv.Itoa(atoi(at)+1) + ", in github.com/retrykit/retrykit/fakeclock.TestWatchdogSeesClockctxSleep) for a timer of this clock it armed at mutants_kill_test.go:" + strconv.Itoa(atoi(at)+1)
	if l.id != self || l.at != want {
		t.Errorf("watchdog's look = goroutine %d, %q; want goroutine %d, %q", l.id, l.at, self, want)
	}
}

// TestWatchdogSeesTheMaker: a goroutine that made the clock and sleeps on
// it is taken for the one that runs the test, though it does not run in
// testing.tRunner (a Ginkgo node, an Example).
func TestWatchdogSeesTheMaker(t *testing.T) {
	rt := &recT{}
	clocks, ids := make(chan *Clock), make(chan int64, 1)
	slept := make(chan struct{})
	go func() {
		defer close(slept)
		clk := New(rt, WithoutLeakCheck())
		id, _ := goheader.Current()
		ids <- id
		clocks <- clk
		clk.Sleep(time.Hour)
	}()
	clk := <-clocks
	maker := <-ids
	g, at, ok := lookStuck(clk)
	clk.Close()
	<-slept
	rt.finish()
	if !ok || g.ID != maker || !strings.HasPrefix(at, "sleeps in Clock.Sleep (at mutants_kill_test.go:") {
		t.Errorf("watchdog's look = goroutine %d, %q, %v; want the maker %d asleep in Clock.Sleep", g.ID, at, ok, maker)
	}
}

// TestWatchdogQuietAfterAnAdvance: when an advance began since the
// watchdog was armed, its look reports nothing, though the goroutine that
// runs the test still sleeps on the clock.
func TestWatchdogQuietAfterAnAdvance(t *testing.T) {
	rt := &recT{}
	clk := New(rt, WithoutLeakCheck())
	ctx := t.Context()
	errs := make(chan error, 1)
	go func() { // steps the clock while the test's goroutine sleeps on it
		errs <- func() error {
			// The advance may begin before the sleep has told the
			// watchdog (issue 38): it counts all the same.
			if err := waitForTimers(clk, 1); err != nil {
				return err
			}
			if err := clk.AdvanceAndDrain(ctx, time.Second); err != nil {
				return err
			}
			// The sleep has armed the watchdog's real timer: stop it and
			// look now, as it would.
			clk.wd.mu.Lock()
			if clk.wd.timer != nil {
				clk.wd.timer.Stop()
				clk.wd.timer = nil
			}
			clk.wd.mu.Unlock()
			clk.bark()
			return clk.AdvanceAndDrain(ctx, time.Second)
		}()
	}()
	clk.Sleep(2 * time.Second)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if got := rt.finish(); len(got) != 0 {
		t.Errorf("the watchdog reported %q after an advance began, want nothing", got)
	}
}

// TestLeakCheckSettlesFirst: code that an earlier cleanup tells to stop,
// and that stops its timer after some work, leaves no leak.
func TestLeakCheckSettlesFirst(t *testing.T) {
	rt := &recT{}
	clk := New(rt)
	ctx, cancel := context.WithCancel(context.Background())
	rt.Cleanup(cancel) // runs before the clock's leak check
	done := make(chan struct{})
	go func() {
		defer close(done)
		tm := clk.NewTimer(time.Hour)
		<-ctx.Done()
		for range 1000 {
			runtime.Gosched() // winding down
		}
		tm.Stop()
	}()
	if err := waitForTimers(clk, 1); err != nil {
		t.Fatal(err)
	}
	errs := rt.finish()
	<-done
	if len(errs) != 0 {
		t.Errorf("leak check reported %q, want nothing: the timer was stopped once the code settled", errs)
	}
}
