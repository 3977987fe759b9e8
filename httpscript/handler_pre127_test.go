//go:build !go1.27

package httpscript_test

import "testing"

// Before Go 1.27 there is no httptest.NewTestServer, whose in-memory
// network works inside a synctest bubble: over httptest.NewServer's
// sockets a bubble never goes idle. The Handler is tested on a fake clock
// instead (TestHandlerServesTheScript and the rest).
func TestHandlerInABubble(t *testing.T) {
	t.Skip("needs Go 1.27's httptest.NewTestServer (its in-memory network works in a synctest bubble); " +
		".ci/run's newest-Go gate runs it; the Handler's tests on a fake clock run here")
}
