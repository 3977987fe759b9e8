// Package httpscript plays the server's side of a retrying HTTP client's
// test: a scripted [http.RoundTripper] that answers each request with the
// next reply of a script — "429 with Retry-After: 7 once, then 200", a
// connection reset, a timeout, a reply that comes late — and records every
// request with the instant it arrived; and a [Ledger] that applies a side
// effect once per idempotency key, as a server that honours the key does.
//
//	func TestClientRetries429(t *testing.T) {
//		clk := fakeclock.New(t)
//		tr := httpscript.NewTransport(t,
//			httpscript.Respond(429).RetryAfter(7*time.Second),
//			httpscript.Respond(200),
//		).WithClock(clk)
//		client := myclient.New(&http.Client{Transport: tr}, clk)
//		go client.Get(t.Context(), "https://api.example.com/items")
//		clk.Step(7 * time.Second)
//		retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second) // the retry waited the hint
//		tr.AssertDone(t)                                    // and the script was played out
//	}
//
// The [Transport] is a schedule the checks of package retrytest and the
// matchers read, as a recorder or a fake clock is: when each request
// began, and how it ended. [Transport.Route] gives a path its own script;
// [Transport.Requests] returns what the client sent, headers and body.
//
// No socket is opened, so the transport works in a testing/synctest
// bubble, where time is the bubble's, as well as on a fake clock
// ([Transport.WithClock]). A request the script has no reply for fails the
// test and returns an error wrapping [ErrUnexpectedRequest], never a hang;
// [Transport.CheckDone] catches a client that stopped before the script
// did.
//
// [Transport.Handler] serves the same scripts over a real connection, as
// an [http.Handler] for httptest.NewServer (on a fake clock) or Go 1.27's
// httptest.NewTestServer (in a bubble), so that a client is tested through
// net/http's own Transport: its connection reuse, the bodies it must read
// and close, HTTP/2. The requests are recorded and timed the same way.
//
// [FromOutcome] answers every request with one retrytest.Outcome, the
// bridge from a pure policy's test to code that reads an HTTP client.
//
// Fixtures (NewTransport) take a fakeclock.FixtureT, which registers
// cleanups; the Assert methods take a retrytest.TestingT, as every Assert
// of retrykit does.
package httpscript
