package withretry_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// badRequest is the permanent failure of the loop's operation.
var badRequest = &withretry.StatusError{Status: 400}

// loopContract is what the package doc promises of WithRetry with 7
// attempts (a ladder long enough to reach the cap): ⌊Random()·ceiling⌋
// under a ceiling doubling from 1s, clamped to 30s before the jitter.
var loopContract = conformance.Spec{
	Policy:       retrytest.Policy{First: time.Second, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 7},
	PermanentErr: badRequest,
}

// retrier adapts WithRetry to the suite: its Sleep and Random are the
// suite's, and a failure of the operation other than the permanent one is
// a *RetryableError, as Client makes a 5xx.
func retrier(with func(context.Context, func(context.Context, int) (struct{}, error), withretry.Options, withretry.Deps) (struct{}, error)) func(conformance.Seams) conformance.Loop {
	return func(s conformance.Seams) conformance.Loop {
		deps := withretry.Deps{Sleep: s.Sleep, Random: s.Rand.Float64}
		return func(ctx context.Context, op func(context.Context) error) error {
			_, err := with(ctx, func(ctx context.Context, _ int) (struct{}, error) {
				err := op(ctx)
				if err != nil && !errors.Is(err, badRequest) && ctx.Err() == nil {
					err = &withretry.RetryableError{Status: http.StatusServiceUnavailable}
				}
				return struct{}{}, err
			}, withretry.Options{Attempts: 7}, deps)
			return err
		}
	}
}

func TestWithRetryConforms(t *testing.T) {
	conformance.TestLoop(t, loopContract, retrier(withretry.WithRetry[struct{}]))
}

// The seed's two old implementations each fail the properties that name
// their bug, and no other.
func TestOldWithRetryFailsConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		with func(context.Context, func(context.Context, int) (struct{}, error), withretry.Options, withretry.Deps) (struct{}, error)
		want []string
	}{
		// The ladder a rung up: the first wait doubled, the cap reached a
		// retry early.
		{"exponent from the retry count", withretry.WithRetryExponentFromRetryCount[struct{}], []string{"WaitsInWindows", "JitterFromSource"}},
		// Seven attempts read as seven retries: eight calls.
		{"counting retries", withretry.WithRetryCountingRetries[struct{}], []string{"AttemptCount"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := conformance.CheckLoop(loopContract, retrier(tc.with))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Failed(); !slices.Equal(got, tc.want) {
				t.Errorf("failed %v, want %v\n%s", got, tc.want, r)
			}
		})
	}
}

// clientContract is what the doc promises of Client with its defaults: 5
// attempts, a 429's or a 5xx's Retry-After replacing the computed delay,
// cut to five minutes, and one Idempotency-Key per Post.
var clientContract = conformance.Spec{
	Policy:         retrytest.Policy{First: time.Second, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 5},
	Hints:          &conformance.Hints{Statuses: []int{429, 503}, Max: 5 * time.Minute},
	Retryable:      []int{429, 500, 501, 502, 503, 504},
	Permanent:      []int{400, 401, 403, 404, 409},
	IdempotencyKey: "Idempotency-Key",
}

// post adapts a Client's Post to the suite's Do: it sends the request's
// body to its URL, on the request's context.
func post(c *withretry.Client) conformance.Do {
	return func(req *http.Request) (*http.Response, error) {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		out, err := c.Post(req.Context(), req.URL.String(), body)
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(out))}, nil
	}
}

func TestClientConforms(t *testing.T) {
	conformance.TestClient(t, clientContract, func(s conformance.Seams) conformance.Do {
		return post(&withretry.Client{
			HTTP: &http.Client{Transport: s.Transport},
			Deps: withretry.Deps{Sleep: s.Sleep, Random: s.Rand.Float64, Now: s.Clock.Now},
		})
	}, conformance.Waive("ConnectionErrors", "WithRetry retries a *RetryableError only, so a reset or a timeout ends the call; seed 001 asks for statuses only"))
}

// vendorContract is what VendorClient's doc promises with 3 retries: 500ms
// doubling, ±25%, no cap; a Retry-After in whole seconds from 0 to 60.
var vendorContract = conformance.Spec{
	Policy:    retrytest.Policy{First: 500 * time.Millisecond, Jitter: retrytest.FactorJitter, JitterFactor: 0.25, Attempts: 4},
	Hints:     &conformance.Hints{Max: time.Minute},
	Retryable: []int{429, 500, 501, 502, 503, 504},
	Permanent: []int{400, 401, 403, 404, 409},
	// The jitter comes from math/rand/v2's global source, which no test can
	// pin.
	OwnRandom: true,
}

// A vendor SDK has no seam: the suite runs it in a synctest bubble, and
// its gaps are waived, each with the reason, for as long as they last.
func TestVendorClientConforms(t *testing.T) {
	conformance.TestClient(t, vendorContract, func(s conformance.Seams) conformance.Do {
		vc := withretry.NewVendorClient(&http.Client{Transport: s.Transport}, 3)
		return func(req *http.Request) (*http.Response, error) {
			body, err := vc.Get(req.Context(), req.URL.String())
			if err != nil {
				return nil, err
			}
			return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(body))}, nil
		}
	}, conformance.RunInBubble(),
		conformance.Waive("ConnectionErrors", "a transport error is returned at once, never retried"),
		conformance.Waive("RetryAfterHTTPDate/imf-fixdate", "Retry-After is read with strconv.Atoi: whole seconds only"),
		conformance.Waive("RetryAfterHTTPDate/rfc850", "Retry-After is read with strconv.Atoi: whole seconds only"),
		conformance.Waive("RetryAfterHTTPDate/asctime", "Retry-After is read with strconv.Atoi: whole seconds only"),
		conformance.Waive("RetryAfterClamped", "a Retry-After over 60s is ignored for the backoff, not cut to 60s"),
		conformance.Waive("RetryAfterAbsurd", "9223372037 is over 60s, so ignored too: the vendor falls back to its backoff"))
}
