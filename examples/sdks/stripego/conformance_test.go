package stripego_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/retrykit/retrykit/examples/sdks/internal/sdktable"
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

// customer is the body of a successful Create.
const customer = `{"id":"cus_test","object":"customer"}`

// withBodies gives each response of rt the body Stripe's API sends with
// its status, as JSON.
type withBodies struct{ rt http.RoundTripper }

func (wb withBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := wb.rt.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body := customer
	if resp.StatusCode >= 400 {
		var ok bool
		if body, ok = stripeBodies[resp.StatusCode]; !ok {
			body = stripeBodies[0]
		}
	}
	resp.Body.Close()
	resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
	resp.Header.Set("Content-Type", "application/json")
	return resp, nil
}

// defaultSpec is what stripe-go claims of its defaults.
//
// needs BodyCases (issue 24): every status's verdict is decided by its
// body (stripe.go:1037-1038), so no status is Retryable as such; 409 and
// the 5xx, which the README and stripe.go:1069-1091 say are retried, and
// a 429 lock timeout (error.go:339), are cases of the body property once
// the Spec has it.
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
		Permanent:      []int{400, 401, 402, 403, 404, 429},
		IdempotencyKey: "Idempotency-Key",
	}
}

// newClient returns the adapter: a client over the suite's transport, the
// bodies Stripe sends on it, with maxRetries retries (nil: the default),
// and one V1Customers.Create per call, with the request's context.
func newClient(maxRetries *int64) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		be := stripe.NewBackendsWithConfig(&stripe.BackendConfig{
			HTTPClient:        &http.Client{Transport: withBodies{s.Transport}},
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
	sleeps = "waits with time.Sleep (stripe.go:744), which no cancel or deadline ends: the call returns when the wait is over"
)

// The defaults against what stripe-go claims, each gap a waiver of the
// case that fails. The waivers and the skips are the pin: a case that
// starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(nil), conformance.RunInBubble(),
		conformance.Waive("CancelDuringWait", sleeps),
		conformance.Waive("DeadlineCutsWait", sleeps),
	)
	sdktable.Pin(t, r, []string{
		"CancelDuringWait", "DeadlineCutsWait",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryableStatuses",
		"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd",
		"BudgetHonoured", "NoLeaks/canceled",
	})
	sdktable.Check(t, sdktable.Row{
		Module: "github.com/stripe/stripe-go/v82", Name: "stripe-go", Config: "defaults",
		Claims: "3 attempts; 0.5s + 0.5s·k² capped at 5s, less up to ¼ (math/rand), at least 0.5s; retries connection errors, 409, ≥ 500, a 429 lock timeout; an idempotency key on every write; no `Retry-After`",
	}, r)
}

// MaxNetworkRetries 5, whose 6 attempts reach the 5s cap at retry 4: the
// same claims, the cap checked too.
func TestConformanceMaxNetworkRetries(t *testing.T) {
	spec := defaultSpec()
	spec.Policy.Attempts = 6
	r := conformance.TestClient(t, spec, newClient(stripe.Int64(5)), conformance.RunInBubble(),
		conformance.Waive("CancelDuringWait", sleeps),
		conformance.Waive("DeadlineCutsWait", sleeps),
	)
	sdktable.Pin(t, r, []string{"CancelDuringWait", "DeadlineCutsWait"}, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetryableStatuses",
		"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd",
		"BudgetHonoured", "NoLeaks/canceled",
	})
	sdktable.Check(t, sdktable.Row{
		Module: "github.com/stripe/stripe-go/v82", Name: "stripe-go", Config: "`MaxNetworkRetries: 5`",
		Claims: "as above, 6 attempts: the 5s cap reached at retry 4",
	}, r)
}
