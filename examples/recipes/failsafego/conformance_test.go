package failsafego_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/failsafehttp"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// spec is what failsafe-go documents of NewRetryPolicyBuilder with the
// backoff a typical caller adds (its default delay is 0, which leaves
// nothing to check between attempts): WithBackoff(1s, 30s) doubles 1s to a
// 30s cap, without jitter; WithMaxRetries(3) makes 4 attempts; connection
// errors, 429 and every 5xx but 501 are retried (the suite's default
// Retryable and Permanent statuses); and "if a Retry-After header is
// present in the response, it will be used as a delay", on 429 and 503.
// The ceiling of a minute is the team's, the one policyDelay enforces.
func spec() conformance.Spec {
	return conformance.Spec{
		Policy: retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Attempts: 4},
		// failsafehttp/policy.go:52-56: 429, and 5xx but 501; a 408 is
		// a final answer there.
		Retryable: []int{429, 500, 502, 503, 504},
		Hints:     &conformance.Hints{Statuses: []int{429, 503}, Max: time.Minute},
	}
}

// newClient returns the adapter: an http.Client whose transport is
// failsafehttp's RoundTripper over the suite's transport, with the policy
// above and delay as its DelayFunc (failsafehttp.DelayFunc by default).
func newClient(delay failsafe.DelayFunc[*http.Response]) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		rp := failsafehttp.NewRetryPolicyBuilder().WithBackoff(time.Second, 30*time.Second).WithMaxRetries(3).WithDelayFunc(delay).Build()
		return (&http.Client{Transport: failsafehttp.NewRoundTripper(s.Transport, rp)}).Do
	}
}

// The policy with failsafehttp's own DelayFunc against what the docs
// promise, each gap waived with the reason. The waivers are the pin: a
// waived property that starts to hold fails the test, and so does any
// other that breaks.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, spec(), newClient(failsafehttp.DelayFunc), conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/imf-fixdate", dateGap),
		conformance.Waive("RetryAfterHTTPDate/rfc850", dateGap),
		conformance.Waive("RetryAfterHTTPDate/asctime", dateGap),
		conformance.Waive("RetryAfterClamped", "failsafehttp/policy.go:75-76 caps nothing: a Retry-After of an hour waits an hour"),
		conformance.Waive("RetryAfterAbsurd/huge", "failsafehttp/policy.go:76 multiplies the seconds by time.Second unchecked: 9223372037 wraps to a negative wait, an immediate retry"),
		conformance.Waive("RetryAfterAbsurd/negative", "failsafehttp/policy.go:75-76 takes a negative hint as a wait: -5 retries at once"),
		conformance.Waive("NoLeaks/bodies", bodiesLeft),
	)
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "`failsafehttp.NewRetryPolicyBuilder().WithBackoff(time.Second, 30*time.Second).WithMaxRetries(3)`",
		Claims: "4 attempts; 1s·2^k capped at 30s, no jitter; retries connection errors, 429, 500, 502, 503, 504; a `Retry-After` on 429 and 503 \"will be used as a delay\", within the team's ceiling of 1m",
	}, r)
}

// bodiesLeft is failsafehttp's RoundTripper's gap whatever the DelayFunc:
// it wraps each attempt's response body (client.go:158-173) and hands
// the response to the retry policy, which drops it for the next attempt
// without closing it; nothing in failsafehttp closes a retried body.
const bodiesLeft = "failsafehttp/client.go:158-173 wraps each response's body and the retry policy drops a retried response without closing it: over a real transport each retried 5xx holds its connection"

// dateGap is failsafehttp.DelayFunc's one gap in all three date forms.
const dateGap = "failsafehttp/policy.go:75 reads integer seconds only (strconv.Atoi): every HTTP-date falls back to the backoff"

// The recipe's fix, a DelayFunc built on retryafter.Limits (policyDelay),
// closes every gap of the delay: the same Spec holds with one waiver, the
// RoundTripper's bodies.
func TestConformancePolicyDelay(t *testing.T) {
	r := conformance.TestClient(t, spec(), newClient(policyDelay), conformance.RunInBubble(), conformance.Waive("NoLeaks/bodies", bodiesLeft))
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "the same, `WithDelayFunc(policyDelay)` (`retryafter.Limits`)",
		Claims: "as with `failsafehttp.DelayFunc`: the same `Spec`",
	}, r)
}
