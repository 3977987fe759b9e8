package anthropicgo_test

import (
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/retrykit/retrykit/examples/internal/conftable"
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
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// MaxRetries 2 (requestconfig.go:177); 0.5s·2^k capped at 8s
		// (requestconfig.go:407-411), less rand.Int63n(c/4): (0.75c, c]
		// (requestconfig.go:413-414).
		Policy: retrytest.Policy{First: 500 * time.Millisecond, Cap: 8 * time.Second,
			Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 3},
		// The math/rand global (requestconfig.go:413).
		OwnRandom: true,
		Retryable: retried,
		Permanent: []int{400, 401, 403, 404, 413},
		// No ceiling: the hint is used as it is (requestconfig.go:355-357, 404).
		Hints: &conformance.Hints{Statuses: retried, Max: retryafter.Forever,
			// Retry-After-Ms first, then Retry-After (requestconfig.go:327-348).
			Fields: []string{"Retry-After-Ms", "Retry-After"}},
		// x-should-retry decides over the status (requestconfig.go:277-281, 290-299).
		Signals: shouldRetry,
	}
}

// shouldRetry are the responses whose x-should-retry header decides
// over their status.
var shouldRetry = []conformance.Signal{
	{Name: "should-retry", Status: 400, Header: http.Header{"X-Should-Retry": {"true"}}, Retry: true},
	{Name: "should-not-retry", Status: 503, Header: http.Header{"X-Should-Retry": {"false"}}, Retry: false},
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
	zoneAsGMT   = "time.Parse(time.RFC1123) (internal/requestconfig/requestconfig.go:341) takes any zone abbreviation, and one it does not know for GMT: a date in CEST is waited two hours too long, where RFC 9110 §5.6.7 allows GMT only"
	unchecked   = "converts the seconds to a Duration unchecked (internal/requestconfig/requestconfig.go:356), then raises the wait to 0 (requestconfig.go:404): a negative hint, NaN, and one beyond a Duration (the smallest int64 on amd64) retry at once"
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
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", unchecked),
		conformance.Waive("RetryAfterAbsurd/negative", unchecked),
		conformance.Waive("RetryAfterAbsurd/nan", unchecked),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone",
		"RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative", "RetryAfterAbsurd/nan",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterClamped", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/anthropics/anthropic-sdk-go/v2", Name: "anthropic-sdk-go", Config: "`NewClient` defaults",
		Claims: "3 attempts; 0.5s·2^k capped at 8s, less up to ¼ (math/rand); retries connection errors, 408, 409, 429, ≥ 500; `Retry-After-Ms`, then `Retry-After` (seconds, HTTP-date), no ceiling",
	}, r)
}

// WithMaxRetries(6), whose 7 attempts reach the 8s cap at retry 5: the
// same claims, the cap checked too.
func TestConformanceMaxRetries(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the pins are amd64's: how NaN and a float beyond int64 convert to a Duration (requestconfig.go:356) depends on the architecture")
	}
	spec := defaultSpec()
	spec.Policy.Attempts = 7
	r := conformance.TestClient(t, spec, newClient(option.WithMaxRetries(6)), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", unchecked),
		conformance.Waive("RetryAfterAbsurd/negative", unchecked),
		conformance.Waive("RetryAfterAbsurd/nan", unchecked),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone",
		"RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative", "RetryAfterAbsurd/nan",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetryAfterClamped", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/anthropics/anthropic-sdk-go/v2", Name: "anthropic-sdk-go", Config: "`WithMaxRetries(6)`",
		Claims: "as `NewClient` defaults, 7 attempts: the 8s cap reached at retry 5",
	}, r)
}

// WithRequestTimeout(20s): "an attempt that exceeds this timeout is
// retried" (option/requestoption.go:379-385).
func TestConformanceRequestTimeout(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the pins are amd64's: how NaN and a float beyond int64 convert to a Duration (requestconfig.go:356) depends on the architecture")
	}
	spec := defaultSpec()
	spec.AttemptTimeout = 20 * time.Second
	r := conformance.TestClient(t, spec, newClient(option.WithRequestTimeout(20*time.Second)), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", unchecked),
		conformance.Waive("RetryAfterAbsurd/negative", unchecked),
		conformance.Waive("RetryAfterAbsurd/nan", unchecked),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone", "RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative", "RetryAfterAbsurd/nan",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterClamped", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/anthropics/anthropic-sdk-go/v2", Name: "anthropic-sdk-go", Config: "`WithRequestTimeout(20 * time.Second)`",
		Claims: "as `NewClient` defaults, and each attempt cut at 20s and retried",
	}, r)
}
