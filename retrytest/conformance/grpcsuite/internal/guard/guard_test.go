package guard

import (
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A watch fires once its budget has passed since the guard saw it, not a
// nanosecond before; a watch done first never fires; each watch has its
// own budget.
func TestWatchFires(t *testing.T) {
	clk := fakeclock.New(t)
	g := Start(clk, 5*time.Second)
	defer g.Stop()
	var a, b, c atomic.Int32
	g.Watch(func() { a.Add(1) })
	done := g.Watch(func() { b.Add(1) })
	clk.Step(2 * time.Second)
	g.Watch(func() { c.Add(1) })
	done.Done()
	clk.Step(3*time.Second - time.Nanosecond)
	if a.Load() != 0 {
		t.Fatal("fired before its budget")
	}
	clk.Step(time.Nanosecond)
	if a.Load() != 1 || b.Load() != 0 || c.Load() != 0 {
		t.Fatalf("at 5s: fired a %d, b %d, c %d times; want 1, 0 (done), 0 (armed at 2s)", a.Load(), b.Load(), c.Load())
	}
	clk.Step(2*time.Second - time.Nanosecond)
	if c.Load() != 0 {
		t.Fatal("the second watch fired before its budget")
	}
	clk.Step(time.Hour)
	if a.Load() != 1 || c.Load() != 1 {
		t.Fatalf("after an hour: fired a %d, c %d times; want once each", a.Load(), c.Load())
	}
}

// Stop ends the goroutine: a watch not yet due never fires.
func TestStopBeforeDue(t *testing.T) {
	clk := fakeclock.New(t)
	g := Start(clk, time.Second)
	var n atomic.Int32
	g.Watch(func() { n.Add(1) })
	clk.Step(0)
	g.Stop()
	clk.Step(time.Hour)
	if n.Load() != 0 {
		t.Fatal("a watch fired after Stop")
	}
}

// A guard started inside a bubble would keep the bubble's time and stall
// with it: Start refuses.
func TestStartInABubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		msg := faket.PanicText(func() { Start(nil, time.Second) })
		if !strings.Contains(msg, "must start outside the testing/synctest bubble") {
			t.Errorf("Start in a bubble panicked with %q", msg)
		}
	})
}

func TestBind(t *testing.T) {
	clk := fakeclock.New(t)
	g := Start(clk, time.Second)
	defer g.Stop()
	key := new(int)
	unbind := Bind(key, g)
	if For(key) != g || For(new(int)) != nil {
		t.Fatal("For does not find the guard bound to its key alone")
	}
	unbind()
	if For(key) != nil {
		t.Fatal("unbind left the guard bound")
	}
}
