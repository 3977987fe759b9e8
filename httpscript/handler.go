package httpscript

import (
	"bytes"
	"io"
	"net/http"

	"github.com/retrykit/retrykit/clockctx"
)

// Handler returns an [http.Handler] that serves tr's scripts over a real
// connection: the same replies RoundTrip gives, recorded in the same
// requests, timed on the same clock, so that a client is tested through
// net/http's own Transport — its connection pool, the bodies it must
// read and close to reuse a connection, HTTP/2 — rather than in place of
// it:
//
//	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(200)).WithClock(clk)
//	srv := httptest.NewServer(tr.Handler())
//	defer srv.Close()
//	client := myclient.New(srv.Client(), clk) // requests go to srv.URL
//	// ... step the clock ...
//	retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond)
//
// With httptest.NewServer the connections are real sockets, so time the
// requests on a fake clock ([Transport.WithClock]): a socket keeps a
// testing/synctest bubble from going idle. Go 1.27's
// httptest.NewTestServer serves over an in-memory network, which works in
// a bubble.
//
// What differs from RoundTrip is what a real connection can carry:
//
//   - [Request.Conn] numbers the connections by the client's address and
//     [Request.Proto] gives the protocol, so a test sees a client that
//     opens a new connection for every retry, as one that leaves a body
//     unread does. A request's URL is the target as the server read it:
//     its path and query.
//   - An error reply (ConnReset, IOTimeout, Fail) aborts the response
//     (http.ErrAbortHandler): the client gets the error its Transport makes
//     of that, not the scripted one. net/http's Transport sends an
//     idempotent request again, once, when the connection it reused was
//     cut before any reply: the server then records both.
//   - A request the script has no reply for fails the test, as through
//     RoundTrip, and has its response aborted.
//   - [Transport.CheckBodiesClosed] cannot see a client's Close across a
//     connection, and says so for the requests the Handler answered with a
//     body.
//
// A Reply's Latency waits on the transport's clock and ends early, with
// nothing written, when the request's context does (the client went away).
func (tr *Transport) Handler() http.Handler { return handler{tr} }

type handler struct{ tr *Transport }

func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tr := h.tr
	body, err := readBody(r)
	if err != nil {
		panic(http.ErrAbortHandler) // the client went away mid-body
	}
	a := tr.arrive(r, body, arrival{remote: r.RemoteAddr, proto: r.Proto})
	rec, reply := a.rec, a.reply
	if !a.ok {
		tr.t.Errorf("%s", a.unexpected)
		panic(http.ErrAbortHandler)
	}
	ctx := r.Context()
	if a.ledger != nil && !reply.noEffect && !safeMethod(rec.Method) {
		c := r.Clone(ctx)
		c.Body = io.NopCloser(bytes.NewReader(body))
		a.ledger.Apply(c)
	}
	if reply.latency > 0 {
		if err := clockctx.Sleep(ctx, a.clock, reply.latency); err != nil {
			tr.unanswered(rec.Attempt, err)
			return
		}
	}
	if reply.err != nil || reply.status < 100 || reply.status > 999 {
		panic(http.ErrAbortHandler)
	}
	for k, vs := range reply.header {
		w.Header()[k] = append([]string(nil), vs...)
	}
	w.WriteHeader(reply.status)
	if r.Method == http.MethodHead || reply.body == "" {
		return
	}
	tr.mu.Lock()
	tr.reqs[rec.Attempt-1].unseenBody = true
	tr.mu.Unlock()
	io.WriteString(w, reply.body)
}

// connLocked is the number of the connection from the client at remote:
// the next number the first time the Handler sees it.
func (tr *Transport) connLocked(remote string) int {
	if tr.conns == nil {
		tr.conns = map[string]int{}
	}
	n, ok := tr.conns[remote]
	if !ok {
		n = len(tr.conns) + 1
		tr.conns[remote] = n
	}
	return n
}
