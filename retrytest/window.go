package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Window is an inclusive range of delays, [Min, Max]. A window whose Min is
// after its Max matches nothing; the checks reject it as an input error.
//
// Write windows with keyed fields (go vet flags unkeyed ones from another
// package):
//
//	retrytest.Window{Min: 50 * time.Millisecond, Max: 150 * time.Millisecond}
//
// or build a whole ladder of them with [Exponential].
type Window struct {
	// Min is the shortest delay in the window.
	Min time.Duration
	// Max is the longest delay in the window.
	Max time.Duration
}

// Contains reports whether Min <= d <= Max.
func (w Window) Contains(d time.Duration) bool { return w.Min <= d && d <= w.Max }

// String formats the window as every retrykit message does: "[50ms, 150ms]".
func (w Window) String() string { return schedfmt.Window(w.Min, w.Max) }
