package stripego_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// stripeBodies are the bodies Stripe's API sends with an error status, in
// the shape of its errors (an "error" object with a type, and a code
// where there is one: the types and codes of error.go:16-24, 125, 176);
// key 0 for every status not listed.
var stripeBodies = map[int]string{
	0:   `{"error":{"type":"api_error","message":"Something went wrong on Stripe's end."}}`,
	400: `{"error":{"type":"invalid_request_error","message":"Missing required param: email.","param":"email"}}`,
	401: `{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: sk_test_x"}}`,
	402: `{"error":{"type":"card_error","code":"card_declined","decline_code":"generic_decline","message":"Your card was declined."}}`,
	403: `{"error":{"type":"invalid_request_error","message":"The provided key does not have the required permissions for this endpoint."}}`,
	404: `{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such customer: 'cus_x'"}}`,
	409: `{"error":{"type":"idempotency_error","message":"There is currently another in-progress request using this Idempotent Key."}}`,
	429: `{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Request rate limit exceeded."}}`,
}

// lockTimeout is the body of a 429 Stripe sends for a lock timeout, the
// one 429 stripe-go retries (error.go:326-344).
const lockTimeout = `{"error":{"type":"invalid_request_error","code":"lock_timeout","message":"This object cannot be accessed right now because another API request or Stripe process is currently accessing it."}}`

// proxyError is the body of an error a proxy in front of the API sends:
// not Stripe's JSON.
const proxyError = "<html><body><h1>400 Bad Request</h1></body></html>"

// verdicts are the responses whose verdict stripe-go takes from the body
// (stripe.go:1037-1038) or the Stripe-Should-Retry header, as the README
// and the source claim it: 409 retried (README.md:251-254,
// stripe.go:1079-1082), a server error retried (stripe.go:1084-1091), and
// retried when the API says Stripe-Should-Retry: true
// (stripe.go:1069-1077); a 429 retried for a lock timeout and not for a
// rate limit (error.go:330-341); a 400 not retried whatever its body
// (stripe.go:1093: "response not known to be safe for retry").
var verdicts = []conformance.Signal{
	{Name: "conflict", Status: 409, Body: stripeBodies[409], Retry: true},
	{Name: "server-error", Status: 500, Body: stripeBodies[0], Retry: true},
	{Name: "unavailable", Status: 503, Body: stripeBodies[0], Retry: true},
	{Name: "should-retry", Status: 500, Header: http.Header{"Stripe-Should-Retry": {"true"}}, Body: stripeBodies[0], Retry: true},
	{Name: "lock-timeout", Status: 429, Body: lockTimeout, Retry: true},
	{Name: "rate-limit", Status: 429, Body: stripeBodies[429], Retry: false, StatusDecides: true}, // Bodies[429] is this body: its control is itself
	{Name: "not-json", Status: 400, Body: proxyError, Retry: false},
}

// customer is the body of a successful Create.
const customer = `{"id":"cus_test","object":"customer"}`

// withCustomer gives each successful response of rt the customer object
// Stripe's API sends for a Create: the suite sends a success with no body,
// which stripe-go cannot parse.
type withCustomer struct{ rt http.RoundTripper }

func (wc withCustomer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := wc.rt.RoundTrip(req)
	if err != nil || resp.StatusCode >= 300 {
		return resp, err
	}
	resp.Body.Close()
	resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader(customer)), int64(len(customer))
	resp.Header.Set("Content-Type", "application/json")
	return resp, nil
}

// defaultSpec is what stripe-go claims of its defaults. Every status's
// verdict is decided by its body (stripe.go:1037-1038), so no status is
// Retryable as such: the statuses it claims to retry are Signals, with
// the bodies Stripe sends, and a call that always fails fails with a
// connection reset, which it retries whatever the body.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// 2 retries (stripe.go:48-50); 0.5s + 0.5s·k² for k from 0,
		// capped at 5s, less rand.Int63n(c/4), then raised to 0.5s
		// (stripe.go:1105-1119, 1482-1483).
		Policy: retrytest.Policy{Ceilings: []time.Duration{500 * time.Millisecond, time.Second, 2500 * time.Millisecond, 5 * time.Second},
			Cap: 5 * time.Second, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Floor: 500 * time.Millisecond, Attempts: 3},
		// The math/rand global (stripe.go:1113).
		OwnRandom:      true,
		Retryable:      []int{},
		Permanent:      []int{400, 401, 402, 403, 404},
		Bodies:         stripeBodies,
		Signals:        verdicts,
		IdempotencyKey: "Idempotency-Key",
	}
}

// newClient returns the adapter: a client over the suite's transport, a
// customer in each success, with maxRetries retries (nil: the default)
// and the http.Client's timeout (0: none), and one V1Customers.Create per
// call, with the request's context.
func newClient(maxRetries *int64, timeout time.Duration) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		be := stripe.NewBackendsWithConfig(&stripe.BackendConfig{
			HTTPClient:        &http.Client{Transport: withCustomer{s.Transport}, Timeout: timeout},
			URL:               stripe.String("https://api.example.com"),
			LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
			MaxNetworkRetries: maxRetries,
		})
		return do(stripe.NewClient("sk_test_x", stripe.WithBackends(be)))
	}
}

// do is one V1Customers.Create of sc per call, with the request's context.
func do(sc *stripe.Client) conformance.Do {
	return func(req *http.Request) (*http.Response, error) {
		c, err := sc.V1Customers.Create(req.Context(), &stripe.CustomerCreateParams{})
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: c.LastResponse.StatusCode, Status: c.LastResponse.Status, Header: c.LastResponse.Header, Body: http.NoBody}, nil
	}
}

// The reasons of the waivers.
const (
	errorObject = "a body with Stripe's error object is parsed into a *stripe.Error (stripe.go:884-915), whose canRetry is true only for a 429 lock timeout (error.go:326-344), and it decides first (stripe.go:1037-1038): the 409, the 5xx and Stripe-Should-Retry: true, which the README (README.md:251-254) and stripe.go:1069-1091 say are retried, never are"
	notJSON     = "a body that is not Stripe's JSON fails to parse, and that error, not a *stripe.Error, is retried like a network error (stripe.go:1047-1067) whatever the status: a proxy's 400 page is retried"
	sleeps      = "waits with time.Sleep (stripe.go:744), which no cancel or deadline ends: the call returns when the wait is over"
)

// The defaults against what stripe-go claims, each gap a waiver of the
// case that fails. The waivers and the skips are the pin: a case that
// starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(nil, 0), conformance.RunInBubble(),
		conformance.Waive("RetrySignals/conflict", errorObject),
		conformance.Waive("RetrySignals/server-error", errorObject),
		conformance.Waive("RetrySignals/unavailable", errorObject),
		conformance.Waive("RetrySignals/should-retry", errorObject),
		conformance.Waive("RetrySignals/not-json", notJSON),
		conformance.Waive("CancelDuringWait", sleeps),
		conformance.Waive("DeadlineCutsWait", sleeps),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetrySignals/conflict", "RetrySignals/server-error", "RetrySignals/unavailable", "RetrySignals/should-retry", "RetrySignals/not-json",
		"CancelDuringWait", "DeadlineCutsWait",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryableStatuses", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "BudgetHonoured", "AttemptTimeout", "NoLeaks/bodies", "NoLeaks/timers", "NoLeaks/canceled",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/stripe/stripe-go/v82", Name: "stripe-go", Config: "defaults",
		Claims: "3 attempts; 0.5s + 0.5s·k² capped at 5s, less up to ¼ (math/rand), at least 0.5s; retries connection errors, 409, ≥ 500, a 429 lock timeout; an idempotency key on every write; no `Retry-After`",
	}, r)
}

// MaxNetworkRetries 5, whose 6 attempts reach the 5s cap at retry 4: the
// same claims, the cap checked too.
func TestConformanceMaxNetworkRetries(t *testing.T) {
	spec := defaultSpec()
	spec.Policy.Attempts = 6
	r := conformance.TestClient(t, spec, newClient(stripe.Int64(5), 0), conformance.RunInBubble(),
		conformance.Waive("RetrySignals/conflict", errorObject),
		conformance.Waive("RetrySignals/server-error", errorObject),
		conformance.Waive("RetrySignals/unavailable", errorObject),
		conformance.Waive("RetrySignals/should-retry", errorObject),
		conformance.Waive("RetrySignals/not-json", notJSON),
		conformance.Waive("CancelDuringWait", sleeps),
		conformance.Waive("DeadlineCutsWait", sleeps),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetrySignals/conflict", "RetrySignals/server-error", "RetrySignals/unavailable", "RetrySignals/should-retry", "RetrySignals/not-json",
		"CancelDuringWait", "DeadlineCutsWait",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetryableStatuses", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "BudgetHonoured", "AttemptTimeout", "NoLeaks/bodies", "NoLeaks/timers", "NoLeaks/canceled",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/stripe/stripe-go/v82", Name: "stripe-go", Config: "`MaxNetworkRetries: 5`",
		Claims: "as the defaults, 6 attempts: the 5s cap reached at retry 4",
	}, r)
}

// The http.Client's 80s timeout, stripe-go's own client's
// (stripe.go:1475-1478, 1543-1545), as the per-attempt timeout: an
// attempt cut by it is a *url.Error, retried (stripe.go:1047-1067).
func TestConformanceHTTPTimeout(t *testing.T) {
	spec := defaultSpec()
	spec.AttemptTimeout = 80 * time.Second
	r := conformance.TestClient(t, spec, newClient(nil, 80*time.Second), conformance.RunInBubble(),
		conformance.Waive("RetrySignals/conflict", errorObject),
		conformance.Waive("RetrySignals/server-error", errorObject),
		conformance.Waive("RetrySignals/unavailable", errorObject),
		conformance.Waive("RetrySignals/should-retry", errorObject),
		conformance.Waive("RetrySignals/not-json", notJSON),
		conformance.Waive("CancelDuringWait", sleeps),
		conformance.Waive("DeadlineCutsWait", sleeps),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetrySignals/conflict", "RetrySignals/server-error", "RetrySignals/unavailable", "RetrySignals/should-retry", "RetrySignals/not-json", "CancelDuringWait", "DeadlineCutsWait",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryableStatuses", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "BudgetHonoured", "NoLeaks/bodies", "NoLeaks/timers", "NoLeaks/canceled",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/stripe/stripe-go/v82", Name: "stripe-go", Config: "`HTTPClient: &http.Client{Timeout: 80 * time.Second}`",
		Claims: "as the defaults, and each attempt cut at 80s, the timeout of stripe-go's own client",
	}, r)
}
