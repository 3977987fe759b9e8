package httpscript

import (
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/settle"
)

// inBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble, where the time package is fake.
func inBubble() bool { return settle.InBubble() }

// report is the body of every Assert method: it fails t with err, if any,
// and returns whether err was nil.
func report(t fakeclock.FixtureT, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
