package httpscript_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"syscall"
	"testing"

	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
)

// A status is a fresh response to the very request, every time, with the
// outcome's status line, header and body.
func TestFromOutcomeResponse(t *testing.T) {
	o := retrytest.Outcome{Status: 429, Header: http.Header{"Retry-After": {"7"}}, Body: "slow down"}
	rt := httpscript.FromOutcome(o)
	for i := range 2 {
		req, _ := http.NewRequest(http.MethodPost, "https://hooks.example.com/in", nil)
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 429 || resp.Status != "429 Too Many Requests" || resp.Header.Get("Retry-After") != "7" || string(body) != "slow down" || resp.Request != req {
			t.Errorf("request %d: got %q, Retry-After %q, body %q, request %p; want \"429 Too Many Requests\", \"7\", \"slow down\", %p",
				i+1, resp.Status, resp.Header.Get("Retry-After"), body, resp.Request, req)
		}
		resp.Header.Set("Retry-After", "0") // the caller's copy: the outcome keeps its own
	}
	if got := o.Header.Get("Retry-After"); got != "7" {
		t.Errorf("the outcome's Retry-After is %q after the responses were changed, want \"7\"", got)
	}
}

// No status is the outcome's error and no response; through a client,
// the client's wrapping of it.
func TestFromOutcomeError(t *testing.T) {
	req, _ := http.NewRequest(http.MethodGet, "https://api.example.com/v1/items", nil)
	resp, err := httpscript.FromOutcome(retrytest.Outcome{Err: syscall.ECONNRESET}).RoundTrip(req)
	if resp != nil || !errors.Is(err, syscall.ECONNRESET) || err.Error() != "connection reset by peer" {
		t.Errorf("a reset: got %v, %v; want no response and \"connection reset by peer\"", resp, err)
	}

	client := &http.Client{Transport: httpscript.FromOutcome(retrytest.Outcome{Err: syscall.ECONNRESET})}
	_, err = client.Get("https://api.example.com/v1/items")
	var ue *url.Error
	if !errors.As(err, &ue) || !errors.Is(err, syscall.ECONNRESET) || err.Error() != `Get "https://api.example.com/v1/items": connection reset by peer` {
		t.Errorf("through a client: got %v, want a *url.Error wrapping the reset", err)
	}

	resp, err = httpscript.FromOutcome(retrytest.Outcome{}).RoundTrip(req)
	if resp != nil || err == nil || err.Error() != "httpscript: FromOutcome: the outcome has neither a status nor an error" {
		t.Errorf("the zero outcome: got %v, %v; want no response and an error saying so", resp, err)
	}
}

// The outcome the suite hands a policy for a 503 with a Retry-After, and
// for a connection reset, as an HTTP client reads them.
func ExampleFromOutcome() {
	for _, o := range []retrytest.Outcome{
		{Status: 503, Header: http.Header{"Retry-After": {"30"}}, Body: `{"error":"overloaded"}`},
		{Err: syscall.ECONNRESET},
	} {
		client := &http.Client{Transport: httpscript.FromOutcome(o)}
		resp, err := client.Get("https://api.example.com/v1/items")
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.Status, "Retry-After:", resp.Header.Get("Retry-After"), string(body))
	}
	// Output:
	// 503 Service Unavailable Retry-After: 30 {"error":"overloaded"}
	// error: Get "https://api.example.com/v1/items": connection reset by peer
}
