package clockctx

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/timerctx"
)

// withAfterFunc returns a context that ends at d on clk, timed by clk's
// AfterFunc: the context for a clock that has none of its own. Its Err
// never blocks and no goroutine waits for it.
func withAfterFunc(parent context.Context, clk clockwork.Clock, d time.Time, cause error) (context.Context, context.CancelFunc) {
	if cur, ok := parent.Deadline(); ok && cur.Before(d) {
		// The parent ends first, as in the context package.
		return context.WithCancel(parent)
	}
	x := timerctx.New(parent, d, cause)
	x.WatchParent() // under an ended parent, x ends at once with its error
	if x.Err() != nil {
		return x, x.Cancel
	}
	if left := clk.Until(d); left > 0 {
		x.SetTimer(clk.AfterFunc(left, x.Expire).Stop)
	} else {
		x.Expire()
	}
	return x, x.Cancel
}
