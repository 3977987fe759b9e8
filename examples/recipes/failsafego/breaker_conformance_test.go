package failsafego_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/failsafehttp"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The circuit breaker of failsafe-go, under failsafehttp, through
// conformance.TestBreakerClient in a bubble (it reads time.Now:
// internal/util/util.go's WallClock). Its defaults, from
// circuitbreaker/circuitbreakerbuilder.go:147-157: one failure opens it
// (failureThreshold 1 of capacity 1), open a minute (Delay), half-open
// at exactly trip+1m (circuitstates.go:98, elapsed >= delay), one probe
// (:120-125), whose success closes it and whose failure opens it again
// (:172-173). A failure is an error only (policy/policy.go:67-70): over
// HTTP a 5xx response is a success, and a canceled call a failure.

// serverFailure is the HandleIf a team adds: a 5xx response is a
// failure, and so is an error, but not the caller's cancel.
func serverFailure(resp *http.Response, err error) bool {
	if err != nil {
		return !errors.Is(err, context.Canceled)
	}
	return resp.StatusCode >= 500
}

// breakerClient adapts failsafehttp's RoundTripper over the suite's
// transport, with the policies policies makes in the suite's bubble.
func breakerClient(policies func() []failsafe.Policy[*http.Response]) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		return (&http.Client{Transport: failsafehttp.NewRoundTripper(s.Transport, policies()...)}).Do
	}
}

// The defaults, declared exactly: a 5xx response never opens the
// breaker, a connection error and a canceled call do.
func TestConformanceBreakerDefaults(t *testing.T) {
	spec := conformance.BreakerSpec{
		Breaker:           retrytest.Breaker{Threshold: 1, OpenFor: time.Minute, Probes: 1},
		Err:               circuitbreaker.ErrOpen,
		FailureStatuses:   []int{},                             // policy/policy.go:67-70: errors only
		IgnoredStatuses:   []int{400, 404, 500, 502, 503, 504}, // a response is a success
		CanceledIsFailure: true,
	}
	r := conformance.TestBreakerClient(t, spec, breakerClient(func() []failsafe.Policy[*http.Response] {
		return []failsafe.Policy[*http.Response]{circuitbreaker.NewWithDefaults[*http.Response]()}
	}), conformance.RunInBubble())
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "`circuitbreaker.NewWithDefaults()` under `failsafehttp.NewRoundTripper`",
		Claims: "opens on one failure, closes on one success, open 1m, half-open at trip+1m (`elapsed >= delay`), 1 probe; a failure is an error only, a canceled call too: every 5xx response is a success",
	}, r)
	conftable.Libraries.Pin(t, r, nil, []string{"CountsReset/success", "CountsReset/interval", "RetriesAndBreaker"})
}

// A team's breaker: a 5xx is a failure, a cancel is not, three failures
// in a row open it. Its half-open state lets three probes through; one
// success closes it, and — where a team expects one failed probe to open
// it again — it takes three.
func TestConformanceBreakerThreshold(t *testing.T) {
	spec := conformance.BreakerSpec{
		Breaker: retrytest.Breaker{Threshold: 3, OpenFor: time.Minute, Probes: 3, ProbeSuccesses: 1},
		Err:     circuitbreaker.ErrOpen,
	}
	r := conformance.TestBreakerClient(t, spec, breakerClient(func() []failsafe.Policy[*http.Response] {
		return []failsafe.Policy[*http.Response]{circuitbreaker.NewBuilder[*http.Response]().HandleIf(serverFailure).WithFailureThreshold(3).Build()}
	}), conformance.RunInBubble(),
		conformance.Waive("ProbeOutcome/failure", "circuitbreaker/circuitstates.go:172: with no success threshold a half-open breaker opens again on failureThreshold failed probes (3), not on the first"),
	)
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "`circuitbreaker.NewBuilder().HandleIf(serverFailure).WithFailureThreshold(3)`",
		Claims: "opens on 3 consecutive failures (a 5xx response, an error, not a cancel); open 1m, half-open at trip+1m, 3 probes, 1 success to close; a failed probe opens it again",
	}, r)
	conftable.Libraries.Pin(t, r, []string{"ProbeOutcome/failure"}, []string{"CountsReset/interval", "RetriesAndBreaker"})
}

// loopPolicy is failsafehttp.NewRetryPolicyBuilder().WithBackoff(1s, 30s)
// as a retrytest.Policy: 2 retries by default, 1s then 2s.
var loopPolicy = retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Attempts: 3}

// retryAndBreaker composes a retry policy around a breaker, as
// failsafehttp.NewRoundTripper(next, rp, cb) does: the first policy is the
// outermost, so the breaker sees every attempt.
func retryAndBreaker(rp failsafe.Policy[*http.Response]) []failsafe.Policy[*http.Response] {
	cb := circuitbreaker.NewBuilder[*http.Response]().HandleIf(serverFailure).WithFailureThreshold(3).Build()
	return []failsafe.Policy[*http.Response]{rp, cb}
}

// The retry policy outside the breaker: each attempt is a failure the
// breaker counts, and, open, it fails each attempt fast while the retry
// policy waits its backoff between them (failsafehttp's policy retries
// any error, circuitbreaker.ErrOpen too: failsafehttp/policy.go:26-47).
func TestConformanceRetryAndBreaker(t *testing.T) {
	spec := conformance.BreakerSpec{
		Breaker: retrytest.Breaker{Threshold: 3, OpenFor: time.Minute, Probes: 3, ProbeSuccesses: 1, ProbeFailures: 3},
		Err:     circuitbreaker.ErrOpen,
		Loop:    &conformance.BreakerLoop{Policy: loopPolicy, Outside: true},
	}
	r := conformance.TestBreakerClient(t, spec, breakerClient(func() []failsafe.Policy[*http.Response] {
		return retryAndBreaker(failsafehttp.NewRetryPolicyBuilder().WithBackoff(time.Second, 30*time.Second).Build())
	}), conformance.RunInBubble())
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "`failsafehttp.NewRoundTripper(next, retryPolicy, breaker)`: `NewRetryPolicyBuilder().WithBackoff(time.Second, 30*time.Second)` around the breaker above",
		Claims: "the breaker counts every attempt (3 opens it), 3 failed probes open it again; open, each attempt fails fast and the retry policy waits 1s then 2s: no request, no hot loop",
	}, r)
	conftable.Libraries.Pin(t, r, nil, []string{"CountsReset/interval"})
}

// The same, the retry policy told not to retry an open breaker: the call
// ends with circuitbreaker.ErrOpen at once.
func TestConformanceRetryAbortsOnOpen(t *testing.T) {
	spec := conformance.BreakerSpec{
		Breaker: retrytest.Breaker{Threshold: 3, OpenFor: time.Minute, Probes: 3, ProbeSuccesses: 1, ProbeFailures: 3},
		Err:     circuitbreaker.ErrOpen,
		Loop:    &conformance.BreakerLoop{Policy: loopPolicy, Outside: true, StopsWhenOpen: true},
	}
	r := conformance.TestBreakerClient(t, spec, breakerClient(func() []failsafe.Policy[*http.Response] {
		return retryAndBreaker(failsafehttp.NewRetryPolicyBuilder().WithBackoff(time.Second, 30*time.Second).AbortOnErrors(circuitbreaker.ErrOpen).Build())
	}), conformance.RunInBubble())
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/failsafe-go/failsafe-go", Name: "failsafe-go",
		Config: "the same, `AbortOnErrors(circuitbreaker.ErrOpen)`",
		Claims: "as above, but a call the open breaker refuses ends at once with `ErrOpen`",
	}, r)
	conftable.Libraries.Pin(t, r, nil, []string{"CountsReset/interval"})
}
