package outcome_test

import (
	"errors"
	"io"
	"net/http"
	"syscall"
	"testing"

	"github.com/retrykit/retrykit/examples/jobs/internal/outcome"
	"github.com/retrykit/retrykit/retrytest"
)

// A status is a response to the very request, with the outcome's header
// and body; no status is the outcome's error, and no response.
func TestTransport(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPost, "https://hooks.example.com/in", nil)
	o := retrytest.Outcome{Status: 429, Header: http.Header{"Retry-After": {"7"}}, Body: "slow down"}
	resp, err := outcome.Transport(o).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "7" || string(body) != "slow down" || resp.Request != req {
		t.Errorf("429: got %d, Retry-After %q, body %q, request %p; want 429, \"7\", \"slow down\", %p", resp.StatusCode, resp.Header.Get("Retry-After"), body, resp.Request, req)
	}
	resp, err = outcome.Transport(retrytest.Outcome{Err: syscall.ECONNRESET}).RoundTrip(req)
	if resp != nil || !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("a reset: got %v, %v; want no response and ECONNRESET", resp, err)
	}
}
