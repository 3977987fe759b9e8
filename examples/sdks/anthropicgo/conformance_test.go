package anthropicgo_test

import (
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/retrykit/retrykit/examples/sdks/internal/sdktable"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// retried are the statuses the client retries
// (internal/requestconfig/requestconfig.go:283-286: 408, 409, 429 and
// >= 500), and whose Retry-After it reads (requestconfig.go:653: the hint
// of every response it retries).
var retried = []int{408, 409, 429, 500, 501, 502, 503, 504}

// defaultSpec is what anthropic-sdk-go claims of NewClient's defaults.
//
// needs DownJitter (issue 24): the wait is c less up to c/4
// (requestconfig.go:413-414), a window (0.75c, c] the Policy cannot state
// yet; until it can, the waits are held to c and every property that
// compares a wait with the backoff's is waived with that reason.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// MaxRetries 2 (requestconfig.go:177), 0.5s·2^k capped at 8s
		// (requestconfig.go:407-411).
		Policy:    retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 8 * time.Second, Attempts: 3},
		Retryable: retried,
		Permanent: []int{400, 401, 403, 404, 413},
		// No ceiling: the hint is used as it is (requestconfig.go:355-357, 404).
		Hints: &conformance.Hints{Statuses: retried, Max: retryafter.Forever},
	}
}

// newClient returns the adapter: a client over the suite's transport,
// with opts, and one Post per call, the request's context and body
// passed on and the last response returned.
func newClient(opts ...option.RequestOption) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		c := anthropic.NewClient(append([]option.RequestOption{
			option.WithAPIKey("sk-ant-test"),
			option.WithBaseURL("https://api.example.com/"),
			option.WithHTTPClient(&http.Client{Transport: s.Transport}),
		}, opts...)...)
		return func(req *http.Request) (*http.Response, error) {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			var resp *http.Response
			if err := c.Post(req.Context(), "v1/items", nil, nil, option.WithRequestBody("application/json", body), option.WithResponseInto(&resp)); err != nil {
				return nil, err
			}
			return resp, nil
		}
	}
}

// The reasons of the waivers.
const (
	rfc1123Only = "reads an HTTP-date with time.Parse(time.RFC1123) only (internal/requestconfig/requestconfig.go:341): RFC 850 and asctime dates, which RFC 9110 §5.6.7 says a recipient must accept, fall back to the backoff"
	unchecked   = "converts the seconds to a Duration unchecked (internal/requestconfig/requestconfig.go:356), then raises the wait to 0 (requestconfig.go:404): a negative hint, NaN, and one beyond a Duration (the smallest int64 on amd64) retry at once"
	interim     = "needs DownJitter (issue 24): the wait is c less up to c/4 (internal/requestconfig/requestconfig.go:413-414), held to c until the Spec can state (0.75c, c]"
)

// NewClient's defaults against what anthropic-sdk-go claims, each gap a
// waiver of the case that fails. The waivers and the skips are the pin: a
// case that starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the pins are amd64's: how NaN and a float beyond int64 convert to a Duration (requestconfig.go:356) depends on the architecture")
	}
	r := conformance.TestClient(t, defaultSpec(), newClient(), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterAbsurd/huge", unchecked),
		conformance.Waive("RetryAfterAbsurd/negative", unchecked),
		conformance.Waive("RetryAfterAbsurd/nan", unchecked),
		conformance.Waive("WaitsInWindows", interim),
		conformance.Waive("RetryableStatuses", interim),
		conformance.Waive("ConnectionErrors", interim),
		conformance.Waive("RetryAfterMalformed", interim),
		conformance.Waive("FreshEachCall", interim),
		conformance.Waive("ConcurrentCalls", interim),
	)
	sdktable.Pin(t, r, []string{
		"WaitsInWindows/min", "WaitsInWindows/middle", "WaitsInWindows/max",
		"RetryableStatuses/408", "RetryableStatuses/409", "RetryableStatuses/429", "RetryableStatuses/500",
		"RetryableStatuses/501", "RetryableStatuses/502", "RetryableStatuses/503", "RetryableStatuses/504",
		"ConnectionErrors/reset", "ConnectionErrors/timeout",
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime",
		"RetryAfterMalformed/malformed", "RetryAfterMalformed/empty",
		"RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative", "RetryAfterAbsurd/nan",
		"FreshEachCall", "ConcurrentCalls",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterClamped", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured",
	})
	sdktable.Check(t, sdktable.Row{
		Module: "github.com/anthropics/anthropic-sdk-go/v2", Name: "anthropic-sdk-go", Config: "`NewClient` defaults",
		Claims: "3 attempts; 0.5s·2^k capped at 8s, less up to ¼ (math/rand); retries connection errors, 408, 409, 429, ≥ 500; `Retry-After-Ms`, then `Retry-After` (seconds, HTTP-date), no ceiling",
	}, r)
}
