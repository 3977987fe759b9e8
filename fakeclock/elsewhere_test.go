package fakeclock_test

import (
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
)

// goroutineNumbers matches the numbers of goroutines, which change from run
// to run.
var goroutineNumbers = regexp.MustCompile(`goroutine \d+`)

// elsewhereCase parks a goroutine of the code under test in one way and
// says what WaitingElsewhere reports of it.
type elsewhereCase struct {
	name string
	// park starts the goroutine on clk; it returns when the goroutine is
	// about to wait, and the goroutine returns once ctx ends.
	park func(ctx context.Context, clk, other *fakeclock.Clock)
}

var elsewhereCases = []elsewhereCase{
	{"select on a real time.After", func(ctx context.Context, clk, _ *fakeclock.Clock) {
		go func() {
			select {
			case <-ctx.Done():
			case <-time.After(time.Hour):
			}
		}()
	}},
	{"receive from a real timer", func(ctx context.Context, clk, _ *fakeclock.Clock) {
		tm := time.NewTimer(time.Hour)
		context.AfterFunc(ctx, func() { tm.Reset(0) })
		go func() { <-tm.C }()
	}},
	{"sleep on another fake clock", func(ctx context.Context, _, other *fakeclock.Clock) {
		go sleepOn(other)
	}},
	{"select on this clock's After", func(ctx context.Context, clk, _ *fakeclock.Clock) {
		go func() {
			select {
			case <-ctx.Done():
			case <-clk.After(time.Hour):
			}
		}()
	}},
	{"receive from this clock's timer armed elsewhere", func(ctx context.Context, clk, _ *fakeclock.Clock) {
		tm := clk.NewTimer(time.Hour)
		context.AfterFunc(ctx, func() { tm.Reset(0) })
		go receive(tm.Chan())
	}},
	{"sleep on this clock", func(ctx context.Context, clk, _ *fakeclock.Clock) {
		go sleepOn(clk)
	}},
}

func receive(c <-chan time.Time) { <-c }

func sleepOn(clk *fakeclock.Clock) { clk.Sleep(time.Hour) }

func sleepReal() { time.Sleep(time.Hour) }

// TestWaitingElsewhere pins what a clock says of the goroutines of the code
// under test parked on something else than itself, outside a bubble.
func TestWaitingElsewhere(t *testing.T) {
	var b strings.Builder
	for _, tc := range elsewhereCases {
		ctx, cancel := context.WithCancel(t.Context())
		clk := fakeclock.New(t, fakeclock.WithoutLeakCheck())
		other := fakeclock.New(t, fakeclock.WithoutLeakCheck())
		tc.park(ctx, clk, other)
		if err := clk.AdvanceAndDrain(ctx, 0); err != nil {
			t.Fatalf("%s: AdvanceAndDrain(0) = %v", tc.name, err)
		}
		b.WriteString(tc.name + ":\n")
		for _, l := range clk.WaitingElsewhere() {
			b.WriteString("    " + l + "\n")
		}
		cancel()
		clk.Close()
		other.Close()
	}
	golden.Check(t, "waiting_elsewhere", goroutineNumbers.ReplaceAllString(b.String(), "goroutine N"))
}

// TestWaitingElsewhereTimeSleep: in a synctest bubble, a goroutine asleep in
// time.Sleep sleeps on the time package's clock, not on the fake one.
func TestWaitingElsewhereTimeSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := fakeclock.New(t)
		done := make(chan struct{})
		go func() {
			defer close(done)
			sleepReal()
		}()
		synctest.Wait()
		got := goroutineNumbers.ReplaceAllString(strings.Join(clk.WaitingElsewhere(), "\n"), "goroutine N")
		golden.Check(t, "waiting_elsewhere_time_sleep", got+"\n")
		<-done
	})
}

// TestRealSleepNamed: code under test that sleeps in time.Sleep instead of
// on the clock keeps an advance from settling; the error names the call,
// and WaitingElsewhere remembers it afterwards.
func TestRealSleepNamed(t *testing.T) {
	clk := fakeclock.New(t)
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		pollReal(&stop)
	}()
	defer func() { stop.Store(true); <-done }()
	ctx, cancel := context.WithTimeout(t.Context(), 50*ms)
	defer cancel()
	err := clk.AdvanceAndDrain(ctx, time.Second)
	if !errors.Is(err, fakeclock.ErrNotSettled) {
		t.Fatalf("AdvanceAndDrain(1s) = %v, want ErrNotSettled", err)
	}
	// The last look may catch the goroutine between two sleeps: the error
	// names it, and the note says where it sleeps whenever the look
	// caught it in time.Sleep.
	if msg := err.Error(); !strings.Contains(msg, "/fakeclock_test.pollReal(") {
		t.Errorf("AdvanceAndDrain(1s) = %q, want it to name the goroutine in pollReal", msg)
	}
	want := []string{"an advance waited in real time for a goroutine asleep in time.Sleep (at " + pollSite + ", in fakeclock_test.pollReal): that is the time package's clock, which no advance of this clock moves; give that code this clock"}
	stop.Store(true)
	<-done
	if got := clk.WaitingElsewhere(); !slices.Equal(got, want) {
		t.Errorf("WaitingElsewhere() = %q, want %q", got, want)
	}
}

// pollReal polls stop every millisecond of real time: the bug of code that
// waits on the time package instead of its clock.
func pollReal(stop *atomic.Bool) {
	for !stop.Load() {
		time.Sleep(time.Millisecond) // pollSite
	}
}

var pollSite = "elsewhere_test.go:" + strconv.Itoa(lineOf("time.Sleep(time.Millisecond) // pollSite"))

// lineOf returns the number of the line of elsewhere_test.go that holds
// marker.
func lineOf(marker string) int {
	src, err := os.ReadFile("elsewhere_test.go")
	if err != nil {
		panic(err)
	}
	before, _, ok := strings.Cut(string(src), marker)
	if !ok {
		panic("no line holds " + marker)
	}
	return strings.Count(before, "\n") + 1
}

// TestLeakCheckNamesRealTimer: a retry loop waits on a real time.After
// while the test's clock still has a timer pending. The leak check names
// the loop's goroutine and its line, besides the timer.
func TestLeakCheckNamesRealTimer(t *testing.T) {
	ft := &fakeT{}
	clk := fakeclock.New(ft)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	heartbeat := clk.NewTicker(time.Minute) // the clock does have work pending
	defer heartbeat.Stop()
	waiting := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		retryOnRealClock(ctx, waiting)
	}()
	<-waiting
	if err := clk.AdvanceAndDrain(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	got := goroutineNumbers.ReplaceAllString(strings.Join(ft.finish(), "\n"), "goroutine N")
	golden.Check(t, "leak_check_real_timer", got+"\n")
	cancel()
	<-exited
}

// retryOnRealClock is a retry loop with the bug: it waits on time.After,
// not on the clock it was given.
func retryOnRealClock(ctx context.Context, waiting chan<- struct{}) {
	close(waiting)
	select {
	case <-ctx.Done():
	case <-time.After(500 * time.Millisecond):
	}
}
