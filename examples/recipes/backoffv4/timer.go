package backoffv4

import (
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/jonboulle/clockwork"
)

// NewTimer returns a [backoff.Timer] that waits on clk, for
// [backoff.RetryNotifyWithTimer] and [backoff.NewTickerWithTimer]. With a
// [github.com/retrykit/retrykit/fakeclock.Clock] every wait of the retry loop
// is a timer on the fake clock, which the test advances; with
// [clockwork.NewRealClock] it is the library's default timer.
//
// The timer is made on the first Start and reset on later ones, as the
// library's own timer is, and Stop stops it, so a loop that ends mid-wait
// (its context canceled) leaves nothing pending on the clock. It panics if clk
// is nil.
func NewTimer(clk clockwork.Clock) backoff.Timer {
	if clk == nil {
		panic("backoffv4: NewTimer: nil clock")
	}
	return &clockTimer{clk: clk}
}

// clockTimer is a backoff.Timer on a clockwork.Clock. Like the library's
// timer, it is used by one retry loop at a time.
type clockTimer struct {
	clk clockwork.Clock
	t   clockwork.Timer
}

func (c *clockTimer) Start(d time.Duration) {
	if c.t == nil {
		c.t = c.clk.NewTimer(d)
		return
	}
	c.t.Reset(d)
}

func (c *clockTimer) Stop() {
	if c.t != nil {
		c.t.Stop()
	}
}

func (c *clockTimer) C() <-chan time.Time { return c.t.Chan() }
