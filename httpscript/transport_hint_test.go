package httpscript_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// A client that ignores Retry-After: 7 and retries after its own 1s: the
// failure table says, in the row of the 429, that the server asked for 7s
// (issue 17).
func TestTransportRowShowsRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200))
		send(tr, "GET", "https://api.example.com/v1/chat", "")
		time.Sleep(time.Second) // the client's own backoff: the hint ignored
		send(tr, "GET", "https://api.example.com/v1/chat", "")
		err := retrytest.CheckAttemptsAt(tr, 0, 7*time.Second)
		if err == nil {
			t.Fatal("CheckAttemptsAt(tr, 0, 7s) = nil, want the retry at 1s caught")
		}
		if !strings.Contains(err.Error(), "429 Too Many Requests, Retry-After: 7 (asks to wait 7s)") {
			t.Errorf("the table does not show that the server asked for 7s:\n%v", err)
		}
		golden.Check(t, "harness_transport_retry_after_ignored", err.Error()+"\n")
	})
}

// Every form of wait hint a scripted reply can carry shows in its row:
// delay-seconds, an HTTP-date (measured from when the request arrived),
// milliseconds, and a malformed value; replies without one show their
// status or error alone.
func TestTransportRowHints(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t,
			httpscript.Respond(429).RetryAfter(7*time.Second),
			httpscript.Respond(503).RetryAfterDate(time.Now().Add(30*time.Second), retryafter.IMFFixdate),
			httpscript.Respond(429).Header("Retry-After", "soon"),
			httpscript.Respond(429).Header("Retry-After-Ms", "1500"),
			httpscript.Respond(503).RetryAfter(time.Hour),
			httpscript.Respond(503),
			httpscript.IOTimeout(),
			httpscript.Respond(200),
		)
		for range 8 {
			send(tr, "GET", "https://api.example.com/v1/chat", "")
			time.Sleep(time.Second)
		}
		var b strings.Builder
		for _, a := range attemptsOf(tr) {
			fmt.Fprintf(&b, "%d  %s\n", a.Index, a.Result)
		}
		golden.Check(t, "harness_transport_row_hints", b.String())
		// The requests keep the bare status line.
		if r := tr.Requests()[0].Result; r != "429 Too Many Requests" {
			t.Errorf("Requests()[0].Result = %q, want %q", r, "429 Too Many Requests")
		}
	})
}

// Outside a bubble without a clock the transport has no times, so an
// HTTP-date shows without the wait it would give on the real clock, which
// changes from run to run; delay-seconds still show theirs.
func TestTransportRowHintsUntimed(t *testing.T) {
	date := time.Date(2026, 8, 12, 9, 0, 7, 0, time.UTC)
	tr := httpscript.NewTransport(t,
		httpscript.Respond(503).RetryAfterDate(date, retryafter.IMFFixdate),
		httpscript.Respond(429).RetryAfter(7*time.Second),
	)
	send(tr, "GET", "https://api.example.com/v1/chat", "")
	send(tr, "GET", "https://api.example.com/v1/chat", "")
	want := []string{
		"503 Service Unavailable, Retry-After: Wed, 12 Aug 2026 09:00:07 GMT",
		"429 Too Many Requests, Retry-After: 7 (asks to wait 7s)",
	}
	for i, a := range attemptsOf(tr) {
		if a.Result != want[i] {
			t.Errorf("Attempts()[%d].Result = %q, want %q", i, a.Result, want[i])
		}
	}
}
