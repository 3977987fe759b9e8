package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// Window is a range of delays: [Min, Max], or [Min, Max) when Open. A
// window that holds no delay (Min after Max, or an open one whose Max is
// its Min) is an input error to the checks.
//
// Write windows with keyed fields (go vet flags unkeyed ones from another
// package), or let [Policy.Windows] build a whole ladder of them:
//
//	retrytest.Window{Min: 50 * time.Millisecond, Max: 150 * time.Millisecond}
type Window struct {
	// Min is the shortest delay in the window.
	Min time.Duration
	// Max is the longest delay in the window, or with Open the first one
	// past it.
	Max time.Duration
	// Open leaves Max out, as a library that draws from [lo, hi) does
	// (rand.Int64N(n) never returns n).
	Open bool
}

// Contains reports whether d is in the window.
func (w Window) Contains(d time.Duration) bool { return schedcheck.Window(w).Contains(d) }

// String formats the window as every retrykit message does:
// "[50ms, 150ms]", or "[0s, 1s)" when Open.
func (w Window) String() string { return schedcheck.Window(w).String() }
