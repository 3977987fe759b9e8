package httpscript_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// retryGet is the code under test of the Handler's tests: a GET retried
// on 503 and on errors after 500ms, 1s, … on clk, up to attempts in all.
// With drain false it leaves the body of every response it retries
// unread and open: the bug that costs a connection per retry.
func retryGet(ctx context.Context, client *http.Client, clk clockwork.Clock, url string, attempts int, drain bool) (int, error) {
	delay := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err == nil && (resp.StatusCode != http.StatusServiceUnavailable || attempt == attempts) {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		if err == nil && drain {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err != nil && attempt == attempts {
			return 0, err
		}
		if err := clockctx.Sleep(ctx, clk, delay); err != nil {
			return 0, err
		}
		delay *= 2
	}
}

// served runs retryGet in a goroutine and returns what it returned, once
// the test has stepped the clock far enough.
func served(t *testing.T, clk *fakeclock.Clock, f func() (int, error)) func() (int, error) {
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := f()
		done <- result{code, err}
	}()
	return func() (int, error) {
		t.Helper()
		clk.Step(time.Hour)
		select {
		case r := <-done:
			return r.code, r.err
		default:
			t.Fatal("the code under test has not returned after an hour on the fake clock")
			return 0, nil
		}
	}
}

// The Handler serves the script over a real connection, timed on the fake
// clock: the retry at exactly 500ms, both requests on one connection,
// since the client read and closed the first body.
func TestHandlerServesTheScript(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t,
		httpscript.Respond(503).RetryAfter(time.Second).Body("busy"),
		httpscript.Respond(200).Body("ok"),
	).WithClock(clk)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()

	wait := served(t, clk, func() (int, error) {
		return retryGet(t.Context(), srv.Client(), clk, srv.URL+"/v1/items?page=2", 3, true)
	})
	clk.Step(499 * time.Millisecond)
	retrytest.AssertAttempts(t, tr, 1)
	clk.Step(time.Millisecond)
	retrytest.AssertAttempts(t, tr, 2)
	if code, err := wait(); code != 200 || err != nil {
		t.Fatalf("retryGet = %d, %v, want 200, nil", code, err)
	}
	retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond)
	tr.AssertDone(t)
	reqs := tr.Requests()
	for i, r := range reqs {
		if r.Conn != 1 || r.Proto != "HTTP/1.1" || r.Method != "GET" || r.URL.String() != "/v1/items?page=2" || r.Step != i+1 {
			t.Errorf("request %d: conn %d %s %s %s step %d, want conn 1 HTTP/1.1 GET /v1/items?page=2 step %d",
				i+1, r.Conn, r.Proto, r.Method, r.URL, r.Step, i+1)
		}
	}
	if got := attemptsOf(tr)[0].Result; got != "503 Service Unavailable, Retry-After: 1 (asks to wait 1s)" {
		t.Errorf("result 1 = %q, want the status and its hint", got)
	}
	if got := reqs[0].Header.Get("User-Agent"); got != "Go-http-client/1.1" {
		t.Errorf("User-Agent = %q, want the header net/http's Transport sent", got)
	}
}

// A client that leaves the body of a response it retries unread makes
// each retry on a new connection: the Handler numbers them.
func TestHandlerConnections(t *testing.T) {
	for _, tc := range []struct {
		name  string
		drain bool
		want  []int
	}{
		{"bodies read and closed", true, []int{1, 1, 1}},
		{"bodies left open", false, []int{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			tr := httpscript.NewTransport(t, httpscript.Respond(503).Body("busy").Times(2), httpscript.Respond(200)).WithClock(clk)
			srv := httptest.NewServer(tr.Handler())
			defer srv.Close()
			defer srv.Client().CloseIdleConnections()
			wait := served(t, clk, func() (int, error) {
				return retryGet(t.Context(), srv.Client(), clk, srv.URL+"/x", 3, tc.drain)
			})
			if code, err := wait(); code != 200 || err != nil {
				t.Fatalf("retryGet = %d, %v, want 200, nil", code, err)
			}
			var got []int
			for _, r := range tr.Requests() {
				got = append(got, r.Conn)
			}
			if !equalInts(got, tc.want) {
				t.Errorf("connections %v, want %v", got, tc.want)
			}
			retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Over HTTP/2 every request rides one connection, a body left open too.
func TestHandlerHTTP2(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Body("busy").Times(2), httpscript.Respond(200)).WithClock(clk)
	srv := httptest.NewUnstartedServer(tr.Handler())
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	wait := served(t, clk, func() (int, error) {
		return retryGet(t.Context(), srv.Client(), clk, srv.URL+"/x", 3, false)
	})
	if code, err := wait(); code != 200 || err != nil {
		t.Fatalf("retryGet = %d, %v, want 200, nil", code, err)
	}
	for _, r := range tr.Requests() {
		if r.Conn != 1 || r.Proto != "HTTP/2.0" {
			t.Errorf("request %d: conn %d %s, want conn 1 HTTP/2.0", r.Attempt, r.Conn, r.Proto)
		}
	}
	retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
}

// An error reply aborts the response. net/http's Transport sends a GET
// again, once, when the connection it reused was cut before any reply: the
// server records both, so one call of the client consumed two replies.
func TestHandlerErrorReplies(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t,
		httpscript.Respond(200).Body("warm"), // leaves a connection in the pool
		httpscript.ConnReset().Times(2),
		httpscript.IOTimeout(),
	).WithClock(clk)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	c := srv.Client()
	if code, _, err := send(c.Transport, "GET", srv.URL+"/x", ""); code != 200 || err != nil {
		t.Fatalf("first GET = %d, %v", code, err)
	}
	_, _, err := send(c.Transport, "GET", srv.URL+"/x", "")
	if err == nil {
		t.Fatal("GET answered by ConnReset: no error")
	}
	_, _, err = send(c.Transport, "POST", srv.URL+"/x", "{}")
	if err == nil {
		t.Fatal("POST answered by IOTimeout: no error")
	}
	var conns []int
	var results []string
	for _, r := range tr.Requests() {
		conns = append(conns, r.Conn)
		results = append(results, r.Result)
	}
	want := []string{"200 OK",
		"aborted the response, for read tcp: read: connection reset by peer",
		"aborted the response, for read tcp: read: connection reset by peer",
		"aborted the response, for read tcp: i/o timeout"}
	if strings.Join(results, "|") != strings.Join(want, "|") || !equalInts(conns, []int{1, 1, 2, 3}) {
		t.Errorf("requests: conns %v, results %q; want conns [1 1 2 3], results %q", conns, results, want)
	}
	tr.AssertDone(t)
}

// Latency waits on the transport's clock; a client that gives up first
// ends the wait, and nothing is written.
func TestHandlerLatency(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(200).Latency(2*time.Second).Times(2)).WithClock(clk)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	done := make(chan int, 1)
	go func() {
		code, _, _ := send(srv.Client().Transport, "GET", srv.URL+"/x", "")
		done <- code
	}()
	clk.Step(1999 * time.Millisecond)
	select {
	case code := <-done:
		t.Fatalf("reply before 2s: %d", code)
	default:
	}
	clk.Step(time.Millisecond)
	if code := <-done; code != 200 {
		t.Fatalf("code = %d, want 200", code)
	}

	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/x", nil)
		_, err := srv.Client().Do(req)
		errc <- err
	}()
	clk.Step(time.Second)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	clk.Step(0) // the handler sees the client go
	if got := tr.Requests()[1].Result; got != "context canceled" {
		t.Errorf("result = %q, want the request's context's error", got)
	}
}

// A request the script has no reply for fails the test, as through
// RoundTrip, and the client gets an error.
func TestHandlerUnexpectedRequest(t *testing.T) {
	clk := fakeclock.New(t)
	ft := &fakeT{}
	tr := httpscript.NewTransport(ft, httpscript.Respond(503)).WithClock(clk)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	req, _ := http.NewRequest("POST", srv.URL+"/v1/charges", strings.NewReader("{}"))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	req, _ = http.NewRequest("POST", srv.URL+"/v1/charges", strings.NewReader("{}"))
	if _, err := srv.Client().Do(req); err == nil {
		t.Error("an unexpected request got a response, want an error")
	}
	srv.Close() // waits for the handler that reported
	if len(ft.Errors) != 1 {
		t.Fatalf("Errorf called %d times, want once: %q", len(ft.Errors), ft.Errors)
	}
	golden.Check(t, "harness_handler_unexpected", ft.Errors[0]+"\n")
}

// CheckBodiesClosed cannot see a Close across a connection: it says so,
// naming the requests the Handler answered with a body, and never passes
// for them.
func TestHandlerBodiesCannotBeSeen(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Body("busy"), httpscript.Respond(204)).WithClock(clk)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	for range 2 {
		if _, _, err := send(srv.Client().Transport, "GET", srv.URL+"/x", ""); err != nil {
			t.Fatal(err)
		}
	}
	err := tr.CheckBodiesClosed()
	if err == nil {
		t.Fatal("CheckBodiesClosed = nil, want it to say it cannot tell")
	}
	golden.Check(t, "harness_handler_bodies", err.Error()+"\n")
}

// A ledger sees the requests the Handler answers, keys read from the
// header the client sent.
func TestHandlerLedger(t *testing.T) {
	clk := fakeclock.New(t)
	ledger := httpscript.NewLedger()
	tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201)).WithClock(clk).WithLedger(ledger)
	srv := httptest.NewServer(tr.Handler())
	defer srv.Close()
	defer srv.Client().CloseIdleConnections()
	for range 2 {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/charges", strings.NewReader(`{"amount":1}`))
		req.Header.Set("Idempotency-Key", "k1")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	ledger.AssertExactlyOnce(t)
	if got := string(tr.Requests()[1].Body); got != `{"amount":1}` {
		t.Errorf("body = %q, want the one sent", got)
	}
}
