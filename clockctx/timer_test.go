package clockctx_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
)

// backoffTimer is cenkalti/backoff's Timer interface, written out: a
// clockctx.Timer must satisfy it.
type backoffTimer interface {
	Start(duration time.Duration)
	Stop()
	C() <-chan time.Time
}

var _ backoffTimer = (*clockctx.Timer)(nil)

// TestTimer: Start arms a timer on the clock, a second Start re-arms it,
// and Stop leaves nothing pending.
func TestTimer(t *testing.T) {
	clk := fakeclock.New(t)
	tm := clockctx.NewTimer(clk)
	if tm.C() != nil {
		t.Errorf("C() before Start = %v, want nil", tm.C())
	}
	tm.Start(time.Second)
	clk.Step(999 * time.Millisecond)
	select {
	case <-tm.C():
		t.Fatal("fired after 999ms of a 1s timer")
	default:
	}
	clk.Step(time.Millisecond)
	if at := <-tm.C(); !at.Equal(fakeclock.Epoch.Add(time.Second)) {
		t.Errorf("fired at %v, want +1s", at.Sub(fakeclock.Epoch))
	}
	tm.Start(2 * time.Second)
	clk.Step(time.Second)
	tm.Stop()
	if p := clk.Pending(); len(p) != 0 {
		t.Errorf("Pending() after Stop = %v, want none", p)
	}
	clk.Step(time.Hour)
	select {
	case <-tm.C():
		t.Error("a stopped timer fired")
	default:
	}
}

// TestTimerRealClock: a nil clock is the real clock.
func TestTimerRealClock(t *testing.T) {
	tm := clockctx.NewTimer(nil)
	tm.Start(0)
	<-tm.C()
	tm.Stop()
}
