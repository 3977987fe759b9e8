package clockctx

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Timer is a restartable timer on a clock with the method set of
// cenkalti/backoff's Timer (v4 and v5): Start arms it, C delivers the
// firing, Stop disarms it. Pass one to backoff.RetryNotifyWithTimer or
// backoff.NewTickerWithTimer, so that every wait of the library's retry
// loop is a timer on the clock the code was handed — a fake one in tests.
// A Timer is safe for concurrent use, though a retry loop uses it from one
// goroutine at a time.
type Timer struct {
	clk clockwork.Clock

	mu sync.Mutex
	t  clockwork.Timer
}

// NewTimer returns a Timer on clk; a nil clk is the real clock. The clock's
// timer is made on the first Start and reset on later ones, as the
// library's own timer does.
func NewTimer(clk clockwork.Clock) *Timer {
	if clk == nil {
		clk = clockwork.NewRealClock()
	}
	return &Timer{clk: clk}
}

// Start arms the timer to fire d from now on its clock, replacing any
// earlier arming.
func (t *Timer) Start(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t == nil {
		t.t = t.clk.NewTimer(d)
		return
	}
	t.t.Reset(d)
}

// Stop disarms the timer, so that a loop that ends mid-wait leaves nothing
// pending on the clock.
func (t *Timer) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t != nil {
		t.t.Stop()
	}
}

// C returns the channel the timer fires on; nil before the first Start.
func (t *Timer) C() <-chan time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t == nil {
		return nil
	}
	return t.t.Chan()
}
