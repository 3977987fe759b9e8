package retryablehttp_test

import (
	"net/http"
	"testing"
	"time"

	rh "github.com/hashicorp/go-retryablehttp"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// defaultSpec is what go-retryablehttp documents of NewClient's defaults:
// DefaultBackoff waits RetryWaitMin (1s) doubling, "limited by" RetryWaitMax
// (30s), without jitter; RetryMax is 4 retries, so 5 attempts;
// DefaultRetryPolicy retries connection errors, 429 and every 5xx but 501
// (the suite's default Retryable and Permanent statuses); DefaultBackoff
// reads Retry-After on 429 and 503, and a user reads "limited by the
// provided minimum and maximum durations" as holding for the hint too.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		Policy: retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Attempts: 5},
		// client.go baseRetryPolicy: 429, and the 500 range but 501; a
		// 408 is a final answer there.
		Retryable: []int{429, 500, 502, 503, 504},
		Hints:     &conformance.Hints{Statuses: []int{429, 503}, Min: time.Second, Max: 30 * time.Second},
	}
}

// newClient returns the adapter: a client with NewClient's defaults and
// backoff, its HTTPClient sending through the suite's transport, used as
// an *http.Client (StandardClient), as code that takes one does.
func newClient(backoff rh.Backoff) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		c := rh.NewClient()
		c.HTTPClient = &http.Client{Transport: s.Transport}
		c.Logger = nil
		c.Backoff = backoff
		return c.StandardClient().Do
	}
}

// NewClient's defaults against what the docs promise, each gap of
// DefaultBackoff waived with the reason. The waivers are the pin: a waived
// property that starts to hold fails the test, and so does any other that
// breaks.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(rh.DefaultBackoff), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", "client.go:592 reads only time.RFC1123: an RFC 850 date falls back to the backoff"),
		conformance.Waive("RetryAfterHTTPDate/asctime", "client.go:592 reads only time.RFC1123: an asctime date falls back to the backoff"),
		conformance.Waive("RetryAfterHTTPDate/zone", "client.go:592 parses with time.RFC1123, which takes any zone abbreviation: 11:02 CEST is read as 11:02 GMT, two hours late"),
		conformance.Waive("RetryAfterClamped", "client.go:554-555 does not clamp the hint to RetryWaitMax: a Retry-After of an hour waits an hour (hashicorp/go-retryablehttp#247)"),
		conformance.Waive("RetryAfterFloored/zero", "client.go:554-555 does not raise the hint to RetryWaitMin: a Retry-After of 0 retries at once"),
		conformance.Waive("RetryAfterFloored/past-date", "client.go:554-555 does not raise the hint to RetryWaitMin: a date in the past retries at once"),
		conformance.Waive("RetryAfterAbsurd/huge", "client.go:588 multiplies the seconds by time.Second unchecked: 9223372037 wraps to a negative wait, an immediate retry"),
	)
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/hashicorp/go-retryablehttp", Name: "go-retryablehttp", Config: "`NewClient()` defaults",
		Claims: "5 attempts (`RetryMax` 4); 1s·2^k capped at 30s (`RetryWaitMin`, `RetryWaitMax`), no jitter; retries connection errors, 429, 500, 502, 503, 504; `Retry-After` (seconds, HTTP-date) on 429 and 503, \"limited by\" the same 1s and 30s",
	}, r)
}

// The recipe's fix, a Backoff built on retryafter.Limits (policyBackoff),
// closes every gap: the same Spec holds without a waiver.
func TestConformancePolicyBackoff(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(policyBackoff), conformance.RunInBubble())
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/hashicorp/go-retryablehttp", Name: "go-retryablehttp", Config: "`Backoff` = `policyBackoff` (`retryafter.Limits`)",
		Claims: "as `NewClient()` defaults: the same `Spec`",
	}, r)
}
