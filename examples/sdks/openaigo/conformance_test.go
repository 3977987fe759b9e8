package openaigo_test

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// retried are the statuses the client retries (README.md:1189-1191,
// internal/requestconfig/requestconfig.go:416-419: 408, 409, 429 and
// >= 500), and whose Retry-After it reads (requestconfig.go:701-707: the
// hint of every response it retries).
var retried = []int{408, 409, 429, 500, 501, 502, 503, 504}

// defaultSpec is what openai-go claims of NewClient's defaults.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// MaxRetries 2 (requestconfig.go:286); 0.5s·2^k capped at 8s
		// (requestconfig.go:30, 567-573), less rand.Int63n(c/4): (0.75c, c]
		// (requestconfig.go:575-577).
		Policy: retrytest.Policy{First: 500 * time.Millisecond, Cap: 8 * time.Second,
			Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 3},
		// The math/rand global (requestconfig.go:576).
		OwnRandom: true,
		Retryable: retried,
		Permanent: []int{400, 401, 403, 404, 422},
		// Up to 2 minutes; a longer hint ends the retries with the
		// response's error (requestoption.go:124-128, requestconfig.go:34,
		// 482-485, 704-707).
		Hints: &conformance.Hints{Statuses: retried, Max: 2 * time.Minute, GiveUp: true,
			// Retry-After-Ms first, then Retry-After (requestconfig.go:446-466).
			Fields: []string{"Retry-After-Ms", "Retry-After"}},
		// x-should-retry decides over the status (requestconfig.go:407-414).
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
		c := openai.NewClient(append([]option.RequestOption{
			option.WithAPIKey("sk-test"),
			option.WithBaseURL("https://api.example.com/v1/"),
			option.WithHTTPClient(&http.Client{Transport: s.Transport}),
		}, opts...)...)
		return func(req *http.Request) (*http.Response, error) {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			var resp *http.Response
			if err := c.Post(req.Context(), "items", nil, nil, option.WithRequestBody("application/json", body), option.WithResponseInto(&resp)); err != nil {
				return nil, err
			}
			return resp, nil
		}
	}
}

// rfc1123Only is the reason of the waivers of the HTTP-date forms the
// client does not read.
const rfc1123Only = "reads an HTTP-date with time.Parse(time.RFC1123) only (internal/requestconfig/requestconfig.go:459): RFC 850 and asctime dates, which RFC 9110 §5.6.7 says a recipient must accept, fall back to the backoff"

// zoneAsGMT is the reason of the waiver of a date in a zone other than GMT.
const zoneAsGMT = "time.Parse(time.RFC1123) (internal/requestconfig/requestconfig.go:459) takes any zone abbreviation, and one it does not know for GMT: a date in CEST is read two hours late, beyond the 2m ceiling, and the retries end, where RFC 9110 §5.6.7 allows GMT only"

// NewClient's defaults against what openai-go claims, each gap a waiver
// of the case that fails. The waivers and the skips are the pin: a case
// that starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/openai/openai-go/v3", Name: "openai-go", Config: "`NewClient` defaults",
		Claims: "3 attempts; 0.5s·2^k capped at 8s, less up to ¼ (math/rand); retries connection errors, 408, 409, 429, ≥ 500; `Retry-After-Ms`, then `Retry-After` (seconds, HTTP-date) up to 2m, a longer one ends the retries",
	}, r)
}

// WithMaxRetries(6), whose 7 attempts reach the 8s cap at retry 5: the
// same claims, the cap checked too.
func TestConformanceMaxRetries(t *testing.T) {
	spec := defaultSpec()
	spec.Policy.Attempts = 7
	r := conformance.TestClient(t, spec, newClient(option.WithMaxRetries(6)), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/openai/openai-go/v3", Name: "openai-go", Config: "`WithMaxRetries(6)`",
		Claims: "as `NewClient` defaults, 7 attempts: the 8s cap reached at retry 5",
	}, r)
}

// WithRequestTimeout(20s), the README's "per-retry timeout"
// (README.md:943-960; option/requestoption.go:288-290: "the timeout for
// each request attempt"): an attempt cut at 20s is retried.
func TestConformanceRequestTimeout(t *testing.T) {
	spec := defaultSpec()
	spec.AttemptTimeout = 20 * time.Second
	r := conformance.TestClient(t, spec, newClient(option.WithRequestTimeout(20*time.Second)), conformance.RunInBubble(),
		conformance.Waive("AttemptTimeout", attemptEnds),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone", "AttemptTimeout",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/openai/openai-go/v3", Name: "openai-go", Config: "`WithRequestTimeout(20 * time.Second)`",
		Claims: "as `NewClient` defaults, and each attempt cut at 20s, \"a per-retry timeout\"",
	}, r)
}

// attemptEnds is the reason of the waiver of AttemptTimeout.
const attemptEnds = "an attempt whose timeout expires ends the call with context.DeadlineExceeded (internal/requestconfig/requestconfig.go:695-700), where the README calls WithRequestTimeout \"a per-retry timeout\" (README.md:943-944)"
