package clockctx

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// Sleep waits d on clk, or until ctx ends, whichever comes first: the wait
// of a retry loop between two attempts. It returns nil once d has passed on
// clk, or ctx.Err() as soon as ctx ends, and then stops the timer it armed,
// so nothing is left pending on clk. It returns nil only if ctx has not
// ended by the time it returns: when the wait is over and ctx has ended
// too (on a fake clock, a deadline due at the same instant), ctx's error
// wins.
//
// If ctx has ended already, Sleep returns ctx.Err() at once, whatever d.
// Otherwise a d of zero or less returns nil at once without asking clk for
// a timer (so a fake clock records no delay for it).
//
// A nil clk waits on a [time.Timer], as clockwork.NewRealClock() does: real
// time, or the fake time of the [testing/synctest] bubble Sleep runs in.
// Sleep panics if ctx is nil.
func Sleep(ctx context.Context, clk clockwork.Clock, d time.Duration) error {
	if ctx == nil {
		panic("clockctx: Sleep: nil context")
	}
	if err := ctx.Err(); err != nil || d <= 0 {
		return err
	}
	var elapsed <-chan time.Time
	if clk == nil {
		t := time.NewTimer(d)
		defer t.Stop()
		elapsed = t.C
	} else {
		t := clk.NewTimer(d)
		defer t.Stop()
		elapsed = t.Chan()
	}
	select {
	case <-elapsed:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}
