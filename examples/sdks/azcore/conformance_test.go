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

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// retried are RetryOptions.StatusCodes by default (policy/policy.go:111-121,
// runtime/policy_retry.go:46-56), whose Retry-After the policy reads too
// (runtime/policy_retry.go:206: the hint of every response it retries).
var retried = []int{408, 429, 500, 502, 503, 504}

// ceilings are azcore's (2^t − 1)·RetryDelay for try t from 1
// (runtime/policy_retry.go:59-70), RetryDelay 800ms
// (runtime/policy_retry.go:41-42), up to the first whose jittered window
// lies wholly above the 60s cap: from there every wait is the cap.
func ceilings() []time.Duration {
	var cs []time.Duration
	for t := 1; ; t++ {
		c := time.Duration(1<<t-1) * 800 * time.Millisecond
		cs = append(cs, c)
		if c*8/10 > time.Minute {
			return cs
		}
	}
}

// defaultSpec is what azcore claims of its retry policy's defaults.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		// MaxRetries 3 (runtime/policy_retry.go:24, 28-29); the ceiling
		// times rand.Float64()/2 + 0.8, [0.8, 1.3), then capped at
		// MaxRetryDelay, 60s (runtime/policy_retry.go:36, 72-85).
		Policy: retrytest.Policy{Ceilings: ceilings(), Cap: time.Minute, CapAfterJitter: true,
			Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, OpenTop: true, Attempts: 4},
		// The math/rand global (runtime/policy_retry.go:73).
		OwnRandom: true,
		Retryable: retried,
		// A hint above MaxRetryDelay (60s) ends the retries, the response
		// returned (runtime/policy_retry.go:209-213).
		Hints: &conformance.Hints{Statuses: retried, Max: time.Minute, GiveUp: true,
			// Retry-After-Ms, x-ms-retry-after-ms, then Retry-After
			// (internal/shared/shared.go:44-88).
			Fields: []string{"Retry-After-Ms", "X-Ms-Retry-After-Ms", "Retry-After"},
			// 0 or a date past is no hint: the backoff (shared.go:95-98,
			// runtime/policy_retry.go:206-208; policy/policy.go:100-101).
			ZeroMeansBackoff: true},
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
	capped      = "caps the jittered wait (runtime/policy_retry.go:83-85): a fifth of retry 6's waits and every one after it is exactly 60s, so clients that reach the cap retry in step"
	rfc1123Only = "reads an HTTP-date with time.Parse(time.RFC1123) only (internal/shared/shared.go:81): RFC 850 and asctime dates, which RFC 9110 §5.6.7 says a recipient must accept, fall back to the backoff"
	zoneAsGMT   = "time.Parse(time.RFC1123) (internal/shared/shared.go:81) takes any zone abbreviation, and one it does not know for GMT: a date in CEST is read two hours late, beyond MaxRetryDelay, and the retries end, where RFC 9110 §5.6.7 allows GMT only"
	wraps       = "multiplies the seconds into a Duration unchecked (internal/shared/shared.go:96): 9223372037 wraps to a negative wait, taken for no hint, so the backoff is used where a hint above MaxRetryDelay ends the retries (runtime/policy_retry.go:209-213)"
)

// The retry policy's defaults against what azcore claims, each gap a
// waiver of the case that fails. The waivers and the skips are the pin: a
// case that starts to hold, or a new one that fails, fails the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(), newClient(policy.ClientOptions{}), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", wraps),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone", "RetryAfterAbsurd/huge",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetrySignals", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/Azure/azure-sdk-for-go/sdk/azcore", Name: "azcore", Config: "`runtime.NewPipeline` defaults",
		Claims: "4 tries; (2^t − 1)·0.8s × [0.8, 1.3) (math/rand), capped at 60s after the jitter; retries connection errors, 408, 429, 500, 502, 503, 504; `Retry-After-Ms`, `x-ms-retry-after-ms`, then `Retry-After` (seconds, HTTP-date), one above 60s ends the retries",
	}, r)
}

// MaxRetries 7, whose 8 tries reach the 60s cap at retry 6: the same
// claims, the cap checked too.
func TestConformanceMaxRetries(t *testing.T) {
	spec := defaultSpec()
	spec.Policy.Attempts = 8
	r := conformance.TestClient(t, spec, newClient(policy.ClientOptions{Retry: policy.RetryOptions{MaxRetries: 7}}), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", wraps),
		conformance.Waive("NoSpikeAtCap", capped),
	)
	conftable.SDKs.Pin(t, r, []string{
		"NoSpikeAtCap", "RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone", "RetryAfterAbsurd/huge",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetrySignals", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/Azure/azure-sdk-for-go/sdk/azcore", Name: "azcore", Config: "`RetryOptions{MaxRetries: 7}`",
		Claims: "as `runtime.NewPipeline` defaults, 8 tries: the 60s cap reached at retry 6",
	}, r)
}

// TryTimeout 20s, "the maximum time allowed for any single try"
// (policy/policy.go:95-98): a try cut at 20s is an error, and retried
// (runtime/policy_retry.go:150-164, 193).
func TestConformanceTryTimeout(t *testing.T) {
	spec := defaultSpec()
	spec.AttemptTimeout = 20 * time.Second
	r := conformance.TestClient(t, spec, newClient(policy.ClientOptions{Retry: policy.RetryOptions{TryTimeout: 20 * time.Second}}), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/rfc850", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/asctime", rfc1123Only),
		conformance.Waive("RetryAfterHTTPDate/zone", zoneAsGMT),
		conformance.Waive("RetryAfterAbsurd/huge", wraps),
	)
	conftable.SDKs.Pin(t, r, []string{
		"RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime", "RetryAfterHTTPDate/zone", "RetryAfterAbsurd/huge",
	}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetrySignals", "IdempotencyKey", "BudgetHonoured", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/Azure/azure-sdk-for-go/sdk/azcore", Name: "azcore", Config: "`RetryOptions{TryTimeout: 20 * time.Second}`",
		Claims: "as `runtime.NewPipeline` defaults, and each try cut at 20s and retried",
	}, r)
}
