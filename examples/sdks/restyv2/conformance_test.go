package restyv2_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// policy is the backoff of SetRetryCount(3) with the default waits:
// 100ms doubling to 2s (retry.go:18-19), half of it plus
// rnd.Int63n(c/2), [c/2, c) (retry.go:213-218, 234-236), raised to the
// first wait, 100ms (retry.go:220-222); 4 attempts (retry.go:114).
var policy = retrytest.Policy{First: 100 * time.Millisecond, Cap: 2 * time.Second, Jitter: retrytest.EqualJitter, OpenTop: true,
	Floor: 100 * time.Millisecond, Attempts: 4}

// statuses are the statuses the suite answers with.
var statuses = []int{400, 401, 403, 404, 429, 500, 501, 502, 503, 504}

// newClient returns the adapter: a client over the suite's transport with
// SetRetryCount(3), changed by configure, and one POST per call, with the
// request's context and body, its response returned.
func newClient(configure func(*resty.Client)) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		c := resty.New().SetTransport(s.Transport).SetRetryCount(3).SetLogger(quiet{})
		if configure != nil {
			configure(c)
		}
		return func(req *http.Request) (*http.Response, error) {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			resp, err := c.R().SetContext(req.Context()).SetBody(body).Post(req.URL.String())
			if err != nil {
				return nil, err
			}
			return &http.Response{StatusCode: resp.StatusCode(), Status: resp.Status(), Header: resp.Header(), Body: io.NopCloser(bytes.NewReader(resp.Body()))}, nil
		}
	}
}

// quiet is a resty.Logger that logs nothing: resty logs every retried
// error and every failed call.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}
func (quiet) Warnf(string, ...any)  {}
func (quiet) Debugf(string, ...any) {}

// The reasons of the waivers.
const ()

// SetRetryCount(3) with the defaults: connection errors retried, no
// status (README.md:722-726).
func TestConformanceRetryCount(t *testing.T) {
	spec := conformance.Spec{Policy: policy, OwnRandom: true, Retryable: []int{}, Permanent: statuses}
	r := conformance.TestClient(t, spec, newClient(nil), conformance.RunInBubble())
	conftable.SDKs.Pin(t, r, nil, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetryableStatuses", "RetrySignals", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/bodies", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/go-resty/resty/v2", Name: "resty", Config: "`SetRetryCount(3)`",
		Claims: "4 attempts; 100ms·2^k capped at 2s, from [c/2, c) (a private `*rand.Rand`), at least 100ms; retries connection errors, no status; no `Retry-After`",
	}, r)
}

// The README's condition for 429s, which keeps the default's errors
// (README.md:748-759): connection errors and 429 retried.
func TestConformanceReadmeCondition(t *testing.T) {
	spec := conformance.Spec{Policy: policy, OwnRandom: true, Retryable: []int{429}, Permanent: []int{400, 401, 403, 404, 500, 501, 502, 503, 504}}
	r := conformance.TestClient(t, spec, newClient(func(c *resty.Client) {
		c.AddRetryCondition(func(r *resty.Response, err error) bool {
			return err != nil || r.StatusCode() == http.StatusTooManyRequests
		})
	}), conformance.RunInBubble(),
	)
	conftable.SDKs.Pin(t, r, nil, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "RetrySignals", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/go-resty/resty/v2", Name: "resty", Config: "`SetRetryCount(3)`, the README's condition `err != nil || r.StatusCode() == 429`",
		Claims: "as `SetRetryCount(3)`, and 429 retried",
	}, r)
}

// AddRetryAfterErrorCondition, whose doc promises retries "after
// encountering an error from the HTTP response" (client.go:777-778): every
// status above 399 retried (response.go:162-164) — and, by the README,
// connection errors no more.
func TestConformanceErrorCondition(t *testing.T) {
	spec := conformance.Spec{Policy: policy, OwnRandom: true, Retryable: statuses, Permanent: []int{}}
	r := conformance.TestClient(t, spec, newClient(func(c *resty.Client) { c.AddRetryAfterErrorCondition() }), conformance.RunInBubble(),
		conformance.Waive("ConnectionErrors/reset", replaces),
		conformance.Waive("ConnectionErrors/timeout", replaces),
	)
	conftable.SDKs.Pin(t, r, []string{"ConnectionErrors/reset", "ConnectionErrors/timeout"}, []string{
		"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap", "PermanentNotRetried", "RetrySignals", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/go-resty/resty/v2", Name: "resty", Config: "`SetRetryCount(3)`, `AddRetryAfterErrorCondition()`",
		Claims: "as `SetRetryCount(3)`, and every status from 400 retried",
	}, r)
}

// replaces is the reason of the waivers of connection errors once a
// condition is added.
const replaces = "a retry condition replaces the default retry of errors (retry.go:125-132, README.md:744-746), and AddRetryAfterErrorCondition's, response.IsError() (client.go:779-784), is false for a connection error: adding it ends the retries of connection errors"

// SetRetryCount(6), whose 7 attempts reach the 2s cap at retry 6: the
// same claims, the cap checked too.
func TestConformanceRetryCountToCap(t *testing.T) {
	p := policy
	p.Attempts = 7
	spec := conformance.Spec{Policy: p, OwnRandom: true, Retryable: []int{}, Permanent: statuses}
	r := conformance.TestClient(t, spec, newClient(func(c *resty.Client) { c.SetRetryCount(6) }), conformance.RunInBubble())
	conftable.SDKs.Pin(t, r, nil, []string{
		"WaitsOnTheClock", "JitterFromSource", "RetryableStatuses", "RetrySignals", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/bodies", "NoLeaks/timers",
	})
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/go-resty/resty/v2", Name: "resty", Config: "`SetRetryCount(6)`",
		Claims: "as `SetRetryCount(3)`, 7 attempts: the 2s cap reached at retry 6",
	}, r)
}
