package retrytest

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// LadderPolicy returns the [Policy] that waits a delay drawn uniformly
// from windows[failed], both ends included, after attempt failed fails
// (failed 0 being the first call), and gives up with reason "exhausted"
// after the last window. With the windows of [Exponential] it is the
// policy that Exponential describes, so a ladder written once serves both
// the schedule checks and a [Fleet] simulation:
//
//	p := retrytest.LadderPolicy(retrytest.Exponential(5*time.Second, 2, time.Hour, 13, retrytest.WithFullJitter())...)
//
// makes 13 attempts: 12 waits, each drawn from [0, min(1h, 5s·2^k)].
//
// LadderPolicy panics if a window has a negative Min or a Min after its
// Max. The windows are copied.
func LadderPolicy(windows ...Window) Policy {
	ws := make([]Window, len(windows))
	for i, w := range windows {
		if w.Min < 0 || w.Min > w.Max {
			panic(fmt.Sprintf("retrytest: LadderPolicy: window %d of %d is %s, want 0s <= Min <= Max", i+1, len(windows), w))
		}
		ws[i] = w
	}
	return func(failed int, rng *rand.Rand) Decision {
		if failed < 0 || failed >= len(ws) {
			return Decision{Reason: "exhausted"}
		}
		w := ws[failed]
		d := w.Min
		if w.Max > w.Min {
			d += time.Duration(rng.Uint64N(uint64(w.Max-w.Min) + 1))
		}
		return Decision{Retry: true, Delay: d, Reason: "backoff"}
	}
}
