package httpscript

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// trackedBody is the body of a scripted response: it knows whether the
// client closed it. A client must close the body of every response it
// gets, those it retries included: over a real transport an unclosed
// body holds its connection (and, with http.Client.Timeout, a goroutine).
type trackedBody struct {
	r      *strings.Reader
	closed atomic.Bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	if b.closed.Load() {
		return 0, fmt.Errorf("httpscript: read on a closed response body")
	}
	return b.r.Read(p)
}

func (b *trackedBody) Close() error {
	b.closed.Store(true)
	return nil
}

var _ io.ReadCloser = (*trackedBody)(nil)

// CheckBodiesClosed checks that the client closed the body of every
// response the transport gave it that had one (a response without a body
// has nothing to close). Call it once the code under test has returned and
// the test has closed the body of the response it got, if any: a body
// still open then is a leak, and the error names the request it answered,
// with the transport's requests:
//
//	httpscript: 2 response bodies never closed: requests 1 (503 Service Unavailable), 2 (503 Service Unavailable)
//
// A body that [Transport.Handler] sent crossed a real connection, where
// the client's Close does not reach the server: for those the check
// cannot pass, and its error says so, naming the requests and what to
// check instead (the connections of [Request.Conn]).
func (tr *Transport) CheckBodiesClosed() error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var open, unseen []string
	for i, b := range tr.bodies {
		if b != nil && !b.closed.Load() {
			open = append(open, fmt.Sprintf("%d (%s)", i+1, tr.reqs[i].Result))
		}
		if tr.reqs[i].unseenBody {
			unseen = append(unseen, fmt.Sprintf("%d (%s)", i+1, tr.reqs[i].Result))
		}
	}
	if len(open) == 0 && len(unseen) == 0 {
		return nil
	}
	var lines []string
	if len(open) > 0 {
		lines = append(lines, fmt.Sprintf("httpscript: %s never closed: %s %s", schedfmt.Count(len(open), "response body"), plural(len(open), "request", "requests"), strings.Join(open, ", ")))
	}
	if len(unseen) > 0 {
		lines = append(lines, fmt.Sprintf("httpscript: cannot tell whether the client closed %s: %s %s came through Transport.Handler, over a real connection, "+
			"where a Close does not reach the server; a client that leaves a body open makes its next request on a new connection (see Request.Conn)",
			schedfmt.Count(len(unseen), "response body"), plural(len(unseen), "request", "requests"), strings.Join(unseen, ", ")))
	}
	lines = append(lines, strings.TrimSuffix(requestsTable(tr.reqs, tr.startLocked(tr.reqs[0].At), !tr.untimed, "  "), "\n"))
	return errors.New(strings.Join(lines, "\n"))
}

// AssertBodiesClosed is [Transport.CheckBodiesClosed] reported through
// t.Errorf. It returns whether the check passed.
func (tr *Transport) AssertBodiesClosed(t retrytest.TestingT) bool {
	t.Helper()
	return report(t, tr.CheckBodiesClosed())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
