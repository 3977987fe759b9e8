//go:build go1.27

package httpscript_test

import (
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
)

// Go 1.27's httptest.NewTestServer serves over an in-memory network, which
// works inside a synctest bubble: the Handler's requests are timed on the
// bubble's clock, through net/http's real Transport, with no fake clock.
func TestHandlerInABubble(t *testing.T) {
	for _, tc := range []struct {
		name  string
		drain bool
		http2 bool
		conns []int
	}{
		{"bodies read and closed", true, false, []int{1, 1, 1}},
		{"bodies left open", false, false, []int{1, 2, 3}},
		{"HTTP/2, bodies left open", false, true, []int{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := httpscript.NewTransport(t,
					httpscript.Respond(503).Body("busy").Times(2),
					httpscript.Respond(200).Latency(250*time.Millisecond),
				)
				srv := httptest.NewTestServer(t, tr.Handler())
				url, proto := "http://api.example.com/x", "HTTP/1.1"
				if tc.http2 {
					srv.EnableHTTP2 = true
					url, proto = "https://api.example.com/x", "HTTP/2.0"
				}
				var code int
				var err error
				go func() { code, err = retryGet(t.Context(), srv.Client(), nil, url, 3, tc.drain) }()
				bubble.SleepAndWait(499 * time.Millisecond)
				retrytest.AssertAttempts(t, tr, 1) // nothing at 499ms
				bubble.SleepAndWait(time.Millisecond)
				retrytest.AssertAttempts(t, tr, 2) // the retry at exactly 500ms
				bubble.SleepAndWait(time.Hour)
				if code != 200 || err != nil {
					t.Fatalf("retryGet = %d, %v, want 200, nil", code, err)
				}
				retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
				var conns []int
				for _, r := range tr.Requests() {
					conns = append(conns, r.Conn)
					if r.Proto != proto || r.URL.String() != "/x" {
						t.Errorf("request %d: %s %s, want %s /x", r.Attempt, r.Proto, r.URL, proto)
					}
				}
				if !equalInts(conns, tc.conns) {
					t.Errorf("connections %v, want %v", conns, tc.conns)
				}
				tr.AssertDone(t)
			})
		})
	}
}
