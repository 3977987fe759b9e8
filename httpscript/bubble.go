package httpscript

import (
	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/retrytest"
)

// inBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble, where the time package is fake.
func inBubble() bool { return goheader.InBubble() }

// report is the body of every Assert method: it fails t with err, if any,
// and returns whether err was nil.
func report(t retrytest.TestingT, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
