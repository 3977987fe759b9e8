package azcore_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"

	"github.com/retrykit/retrykit/examples/sdks/internal/sdktable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// retried are RetryOptions.StatusCodes by default (policy/policy.go:111-121,
// runtime/policy_retry.go:46-56), whose Retry-After the policy reads too
// (runtime/policy_retry.go:206: the hint of every response it retries).
var retried = []int{408, 429, 500, 502, 503, 504}

// defaultSpec is what azcore claims of its retry policy's defaults.
//
// needs Ceilings and ScaleJitter (issue 24): the wait before try t+1 is
// (2^t − 1)·800ms times a factor from [0.8, 1.3), capped at 60s after
// the jitter (runtime/policy_retry.go:59-88); until the Policy can state
// that, its ceilings are held to 800ms doubling and the properties that
// compare a wait with them are waived with that reason.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// MaxRetries 3 (runtime/policy_retry.go:24, 28-29).
		Policy:    retrytest.Policy{First: 800 * time.Millisecond, Growth: 2, Cap: time.Minute, CapAfterJitter: true, Attempts: 4},
		Retryable: retried,
		// A hint above MaxRetryDelay (60s) ends the retries, the response
		// returned (runtime/policy_retry.go:209-213).
		Hints: &conformance.Hints{Statuses: retried, Max: time.Minute, GiveUp: true},
	}
}

// newClient returns the adapter: a pipeline over the suite's transport
// with opts, and one request per call, with the request's context and
// body; the last response is returned as it is.
func newClient(opts policy.ClientOptions) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		opts.Transport = &http.Client{Transport: s.Transport}
		pl := runtime.NewPipeline("retrykit", "v0.0.0", runtime.PipelineOptions{}, &opts)
		return func(req *http.Request) (*http.Response, error) {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			r, err := runtime.NewRequest(req.Context(), req.Method, req.URL.String())
			if err != nil {
				return nil, err
			}
			if err := r.SetBody(streaming.NopCloser(bytes.NewReader(body)), "application/json"); err != nil {
				return nil, err
			}
			return pl.Do(r)
		}
	}
}

// The reasons of the waivers.
const (
	rfc1123Only = "reads an HTTP-date with time.Parse(time.RFC1123) only (internal/shared/shared.go:81): RFC 850 and asctime dates, which RFC 9110 §5.6.7 says a recipient must accept, fall back to the backoff"
	wraps       = "multiplies the seconds into a Duration unchecked (internal/shared/shared.go:96): 9223372037 wraps to a negative wait, taken for no hint, so the backoff is used where a hint above MaxRetryDelay ends the retries (runtime/policy_retry.go:209-213)"
	interim     = "needs Ceilings and ScaleJitter (issue 24): the wait is (2^t − 1)·800ms times [0.8, 1.3) (runtime/policy_retry.go:59-88), held to 800ms·2^k until the Spec can state it"
)

// The retry policy's defaults against what azcore claims, each gap a
// waiver of the case that fails. The waivers and the skips are the pin: a
// case that starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(policy.ClientOptions{}), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterAbsurd/huge", wraps),
		conformance.Waive("WaitsInWindows", interim),
		conformance.Waive("RetryableStatuses", interim),
		conformance.Waive("ConnectionErrors", interim),
		conformance.Waive("RetryAfterMalformed", interim),
		conformance.Waive("RetryAfterAbsurd/negative", interim),
		conformance.Waive("RetryAfterAbsurd/nan", interim),
		conformance.Waive("FreshEachCall", interim),
		conformance.Waive("ConcurrentCalls", interim),
	)
	sdktable.Pin(t, r, []string{
		"WaitsInWindows/min", "WaitsInWindows/middle", "WaitsInWindows/max",
		"RetryableStatuses/408", "RetryableStatuses/429", "RetryableStatuses/500", "RetryableStatuses/502", "RetryableStatuses/503", "RetryableStatuses/504",
		"ConnectionErrors/reset", "ConnectionErrors/timeout",
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime",
		"RetryAfterMalformed/malformed", "RetryAfterMalformed/empty",
		"RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative", "RetryAfterAbsurd/nan",
		"FreshEachCall", "ConcurrentCalls",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryAfterFloored", "IdempotencyKey", "BudgetHonoured",
	})
	sdktable.Check(t, sdktable.Row{
		Module: "github.com/Azure/azure-sdk-for-go/sdk/azcore", Name: "azcore", Config: "`runtime.NewPipeline` defaults",
		Claims: "4 tries; (2^t − 1)·0.8s × [0.8, 1.3) (math/rand), capped at 60s after the jitter; retries connection errors, 408, 429, 500, 502, 503, 504; `Retry-After-Ms`, `x-ms-retry-after-ms`, then `Retry-After` (seconds, HTTP-date), one above 60s ends the retries",
	}, r)
}
