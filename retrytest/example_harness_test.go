package retrytest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// Seed 003's script, "429 with retry-after: 7 once, then 200", with the
// requests timed on a fake clock. The transport is the provider the checks
// read.
func ExampleNewTransport() {
	clk := clockwork.NewFakeClockAt(time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC))
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := retrytest.NewTransport(t,
			retrytest.Respond(429).RetryAfter(7*time.Second),
			retrytest.Respond(200).Body(`{"label":"billing"}`),
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
	// retrytest.Transport: 2 requests
	//     attempt  at   request                                  route  result
	//     1        +0s  GET https://api.example.com/v1/classify  -      429 Too Many Requests
	//     2        +7s  GET https://api.example.com/v1/classify  -      200 OK
	// default script:
	//     step  reply                                   times  served
	//     1     429 Too Many Requests, Retry-After: 7   once   1
	//     2     200 OK, body "{\"label\":\"billing\"}"  once   1
	// PASS
}

// A client that ignores the server's Retry-After: 7 and retries after its
// own 1s backoff. The failure table says, in the row of the 429, how long
// the server asked it to wait.
func ExampleAssertAttemptsAt_ignoredRetryAfter() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := retrytest.NewTransport(t,
			retrytest.Respond(429).RetryAfter(7*time.Second),
			retrytest.Respond(200),
		).WithClock(clk)
		client := tr.Client()

		resp, _ := client.Get("https://api.example.com/v1/chat")
		resp.Body.Close()
		clk.Advance(time.Second) // the client's own backoff, not the server's 7s
		resp, _ = client.Get("https://api.example.com/v1/chat")
		resp.Body.Close()

		retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
	})
	// Output:
	// retrytest: attempt 2 of 2: at = 1s, want 7s
	// retry schedule (2 attempts):
	//     attempt  delay  at  want   result
	//     1        0s     0s  at 0s  429 Too Many Requests, Retry-After: 7 (asks to wait 7s)
	//   > 2        1s     1s  at 7s  200 OK  <-- at 1s, want 7s
	// FAIL
}

// A client that retries more often than the script allows gets an error at
// once, and the test fails with the request and the script.
func ExampleNewTransport_exhausted() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := retrytest.NewTransport(t, retrytest.Respond(503).Times(2)).WithClock(clk)
		for range 3 {
			resp, err := tr.Client().Post("https://api.example.com/v1/charges", "application/json", nil)
			if err != nil {
				fmt.Println("client got:", errors.Is(err, retrytest.ErrUnexpectedRequest))
				continue
			}
			resp.Body.Close()
		}
	})
	// Output:
	// retrytest: Transport: unexpected request 3 at +0s: POST https://api.example.com/v1/charges: no reply left in the default script
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
		tr := retrytest.NewTransport(t).WithClock(clk).
			Route("POST /v1/charges", retrytest.Respond(503), retrytest.Respond(201)).
			Route("GET /v1/charges/{id}", retrytest.Respond(200).Always()).
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
		ledger := retrytest.NewLedger()
		tr := retrytest.NewTransport(t, retrytest.Respond(503), retrytest.Respond(201)).
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
	// retrytest: side effect applied twice, want exactly once: 2 requests carried 2 different keys
	// ledger: 2 requests, applied twice, 0 duplicates
	//     key         requests  outcome
	//     "charge-1"  1         applied
	//     "charge-2"  1         applied
	// FAIL
}

// Seed 000's classification table, against a classifier that retries a
// 404 and gives up on a 429.
func ExampleCheckClassifier() {
	classify := func(resp *http.Response, err error) bool {
		return err != nil || resp.StatusCode >= 404 && resp.StatusCode != 429 // bugs
	}
	err := retrytest.CheckClassifier(classify,
		retrytest.ClassifyCase{Status: 503, Retry: true},
		retrytest.ClassifyCase{Status: 429, Retry: true},
		retrytest.ClassifyCase{Status: 404},
		retrytest.ClassifyCase{Err: errors.New("connect timeout"), Retry: true},
	)
	fmt.Println(err)
	// Output:
	// retrytest: classifier gets 2 of 4 cases wrong: case 2 (429 Too Many Requests), case 3 (404 Not Found)
	//     case  input                    got    want
	//     1     503 Service Unavailable  retry  retry
	//   > 2     429 Too Many Requests    stop   retry  <-- wrong decision
	//   > 3     404 Not Found            retry  stop  <-- wrong decision
	//     4     connect timeout          retry  retry
}

// Seed 003: "assert that a total budget aborts the loop mid-wait". This
// loop finished its 2s wait and tried again after its 2s deadline.
func ExampleCheckStopped() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		ctx, cancel := clockctx.WithTimeout(context.Background(), clk, 2*time.Second)
		defer cancel()
		sw := retrytest.NewStopwatch().WithClock(clk)
		call := retrytest.Start(clk, func() error {
			for _, d := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
				sw.Attempt()
				sw.AttemptResult(errors.New("503 Service Unavailable"))
				clk.Sleep(d) // bug: deaf to ctx
			}
			sw.Attempt()
			sw.AttemptResult(ctx.Err())
			return ctx.Err()
		})
		clk.Step(10 * time.Second)
		fmt.Println(retrytest.CheckStopped(sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded}))
	})
	// Output:
	// retrytest: returned at 3.5s, 1.5s after the stop at 2s: attempt 4 began at 3.5s, so the wait before it (2s) was not cut short
	// retrytest: attempt 4 began at 3.5s, at or after the stop at 2s
	// retry schedule stopping at 2s (4 attempts):
	//     attempt  delay  at     want  result
	//     1        0s     0s     < 2s  503 Service Unavailable
	//     2        500ms  500ms  < 2s  503 Service Unavailable
	//     3        1s     1.5s   < 2s  503 Service Unavailable
	//   > 4        2s     3.5s   < 2s  context deadline exceeded  <-- after the stop
	//     return   0s     3.5s   2s    context deadline exceeded
	// PASS
}

// A budget built before synctest.Test captured real time.
func ExampleCheckBubbleTime() {
	deadline := time.Date(2026, 11, 30, 13, 42, 0, 0, time.UTC) // time.Now().Add(budget), outside the bubble
	fmt.Println(retrytest.CheckBubbleTime(deadline))
	fmt.Println(retrytest.CheckBubbleTime(fakeclock.Epoch.Add(15 * time.Minute)))
	// Output:
	// retrytest: time 2026-11-30T13:42:00Z is real time, not bubble time (a synctest bubble's clock starts at 2000-01-01T00:00:00Z): it was read outside the bubble. A policy or context that captures time.Now when it is built (a deadline, a total budget such as sethvargo/go-retry's WithMaxDuration) must be built inside the function passed to synctest.Test, or its budget is measured against the wrong clock
	// <nil>
}

// A Stopwatch times attempts of code that has no HTTP seam; here on a fake
// clock, usually inside a synctest bubble on time.Now.
func ExampleStopwatch() {
	clk := clockwork.NewFakeClock()
	sw := retrytest.NewStopwatch().WithClock(clk)
	for i, d := range []time.Duration{0, 500 * time.Millisecond, time.Second} {
		clk.Advance(d)
		sw.Attempt()
		if i < 2 {
			sw.AttemptResult(errors.New("503 Service Unavailable"))
		} else {
			sw.AttemptResult(nil)
		}
	}
	fmt.Println(retrytest.CheckAttemptsAt(sw, 0, 500*time.Millisecond, 1500*time.Millisecond))
	fmt.Println(sw)
	// Output:
	// <nil>
	// stopwatch: 3 attempts
	//     attempt  delay  at     result
	//     1        0s     0s     503 Service Unavailable
	//     2        500ms  500ms  503 Service Unavailable
	//     3        1s     1.5s   ok
}

// TestExampleAdvance is the example of Advance, which needs a synctest
// bubble and so a *testing.T: the retry comes at exactly 7s.
func TestExampleAdvance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := retrytest.NewTransport(t, retrytest.Respond(429).RetryAfter(7*time.Second), retrytest.Respond(200))
		go newRetryClient(tr).get(t.Context(), apiURL)

		retrytest.Step(6999 * time.Millisecond)
		retrytest.AssertAttempts(t, tr, 1)
		retrytest.Step(time.Millisecond)
		retrytest.AssertAttempts(t, tr, 2)
	})
}

// TestExampleVerifyNoLeaks is the example of VerifyNoLeaks: first in the
// test, so its check runs after every other Cleanup.
func TestExampleVerifyNoLeaks(t *testing.T) {
	retrytest.VerifyNoLeaks(t)
	tr := retrytest.NewTransport(t, retrytest.Respond(200))
	resp, err := (&http.Client{Transport: tr, Timeout: time.Minute}).Get(apiURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close() // without it, the client's Timeout goroutine would leak
}
