package httpscript_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
)

// Seed 003's script, "429 with retry-after: 7 once, then 200", with the
// requests timed on a fake clock. The transport is the provider the checks
// read.
func ExampleNewTransport() {
	clk := clockwork.NewFakeClockAt(time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC))
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := httpscript.NewTransport(t,
			httpscript.Respond(429).RetryAfter(7*time.Second),
			httpscript.Respond(200).Body(`{"label":"billing"}`),
		).WithClock(clk)
		client := tr.Client()

		resp, _ := client.Get("https://api.example.com/v1/classify")
		resp.Body.Close()
		fmt.Println(resp.Status, resp.Header.Get("Retry-After"))
		clk.Advance(7 * time.Second) // the code under test would wait here
		resp, _ = client.Get("https://api.example.com/v1/classify")
		resp.Body.Close()
		fmt.Println(resp.Status)

		retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
		fmt.Println(tr)
	})
	// Output:
	// 429 Too Many Requests 7
	// 200 OK
	// httpscript.Transport: 2 requests
	//     attempt  at   request                                  route  result
	//     1        +0s  GET https://api.example.com/v1/classify  -      429 Too Many Requests
	//     2        +7s  GET https://api.example.com/v1/classify  -      200 OK
	// default script:
	//     step  reply                                   times  served
	//     1     429 Too Many Requests, Retry-After: 7   once   1
	//     2     200 OK, body "{\"label\":\"billing\"}"  once   1
	// PASS
}

// A client that retries more often than the script allows gets an error at
// once, and the test fails with the request and the script.
func ExampleNewTransport_exhausted() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(2)).WithClock(clk)
		for range 3 {
			resp, err := tr.Client().Post("https://api.example.com/v1/charges", "application/json", nil)
			if err != nil {
				fmt.Println("client got:", errors.Is(err, httpscript.ErrUnexpectedRequest))
				continue
			}
			resp.Body.Close()
		}
	})
	// Output:
	// httpscript: Transport: unexpected request 3 at +0s: POST https://api.example.com/v1/charges: no reply left in the default script
	// default script:
	//     step  reply                    times    served
	//     1     503 Service Unavailable  2 times  2
	// requests (3):
	//     attempt  at   request                                  route  result
	//     1        +0s  POST https://api.example.com/v1/charges  -      503 Service Unavailable
	//     2        +0s  POST https://api.example.com/v1/charges  -      503 Service Unavailable
	//     3        +0s  POST https://api.example.com/v1/charges  -      unexpected request
	// client got: true
	// FAIL
}

// Per-route scripts, by method and path as http.ServeMux matches them.
// A route without replies is an endpoint that must not be called.
func ExampleTransport_Route() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := httpscript.NewTransport(t).WithClock(clk).
			Route("POST /v1/charges", httpscript.Respond(503), httpscript.Respond(201)).
			Route("GET /v1/charges/{id}", httpscript.Respond(200).Always()).
			Route("DELETE /v1/charges/{id}")
		client := tr.Client()
		for _, req := range []struct{ method, path string }{
			{"POST", "/v1/charges"}, {"GET", "/v1/charges/ch_1"}, {"POST", "/v1/charges"},
		} {
			r, _ := http.NewRequest(req.method, "https://api.example.com"+req.path, nil)
			resp, _ := client.Do(r)
			resp.Body.Close()
			fmt.Println(req.method, req.path, "->", resp.Status)
		}
		for _, r := range tr.Requests() {
			fmt.Printf("%d %q step %d\n", r.Attempt, r.Route, r.Step)
		}
	})
	// Output:
	// POST /v1/charges -> 503 Service Unavailable
	// GET /v1/charges/ch_1 -> 200 OK
	// POST /v1/charges -> 201 Created
	// 1 "POST /v1/charges" step 1
	// 2 "GET /v1/charges/{id}" step 1
	// 3 "POST /v1/charges" step 2
	// PASS
}

// Seed 001: "if the call charged a card, the second attempt does it
// twice". The ledger applies the charge once per idempotency key; a client
// that makes a new key for every attempt is caught.
func ExampleLedger_CheckExactlyOnce() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		ledger := httpscript.NewLedger()
		tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201)).
			WithClock(clk).WithLedger(ledger)
		for attempt := 1; attempt <= 2; attempt++ {
			req, _ := http.NewRequest("POST", "https://api.example.com/v1/charges", nil)
			req.Header.Set("Idempotency-Key", fmt.Sprintf("charge-%d", attempt)) // bug: one key per attempt
			resp, _ := tr.RoundTrip(req)
			resp.Body.Close()
		}
		ledger.AssertExactlyOnce(t)
	})
	// Output:
	// httpscript: side effect applied twice, want exactly once: 2 requests carried 2 different keys
	// ledger: 2 requests, applied twice, 0 duplicates
	//     key         requests  outcome
	//     "charge-1"  1         applied
	//     "charge-2"  1         applied
	// FAIL
}

// The same script served over a real connection: net/http's Transport
// carries the requests, and the transport records them as RoundTrip does,
// with the connection each came on.
func ExampleTransport_Handler() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := httpscript.NewTransport(t,
			httpscript.Respond(503).RetryAfter(2*time.Second).Body("busy"),
			httpscript.Respond(200).Body("ok"),
		).WithClock(clk)
		srv := httptest.NewServer(tr.Handler())
		defer srv.Close()
		client := srv.Client()
		defer client.CloseIdleConnections()

		for range 2 {
			resp, err := client.Get(srv.URL + "/v1/items")
			if err != nil {
				fmt.Println(err)
				return
			}
			io.Copy(io.Discard, resp.Body) // read and closed: the connection is reused
			resp.Body.Close()
			clk.Advance(2 * time.Second)
		}
		retrytest.AssertAttemptsAt(t, tr, 0, 2*time.Second)
		for _, r := range tr.Requests() {
			fmt.Println(r.Attempt, r.Proto, "conn", r.Conn, r.URL, r.Result)
		}
	})
	// Output:
	// 1 HTTP/1.1 conn 1 /v1/items 503 Service Unavailable
	// 2 HTTP/1.1 conn 1 /v1/items 200 OK
	// PASS
}
