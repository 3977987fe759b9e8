package llmclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// contract is what the package doc promises of Client with 7 attempts (a
// ladder long enough to reach the ceiling): min(8s, 500ms·2^(n-1)) scaled
// by 0.5 + Random()/2, equal jitter (the top is reached: with Random at
// 1-2⁻⁵³, 0.5 + Random()/2 rounds to exactly 1); a 429's or a
// 503's Retry-After in seconds or as an HTTP-date, capped at 60s; 408, 409,
// 429 and 5xx retried, any other 4xx not.
var contract = conformance.Spec{
	Policy:    retrytest.Policy{First: 500 * time.Millisecond, Cap: 8 * time.Second, Jitter: retrytest.EqualJitter, Attempts: 7},
	Hints:     &conformance.Hints{Max: time.Minute},
	Retryable: []int{408, 409, 429, 500, 501, 502, 503, 504},
	Permanent: []int{400, 401, 403, 404, 422},
}

// noConnectionRetries is a gap of the client: a transport error is no
// *APIError, so WithBackoff returns it at once.
var noConnectionRetries = conformance.Waive("ConnectionErrors", "WithBackoff retries a retryable *APIError only: a reset or a timeout ends the call")

// backoff is one of the old implementations of WithBackoff.
type backoff func(context.Context, func(context.Context) (string, error), llmclient.Options) (string, error)

// answered turns what Classify returned into the suite's answer. The
// suite's 200 has an empty body, which Classify cannot read as a reply:
// that is an answer, not a failure of the call.
func answered(req *http.Request, err error) (*http.Response, error) {
	var apiErr *llmclient.APIError
	var urlErr *url.Error
	if err != nil && (errors.As(err, &apiErr) || errors.As(err, &urlErr) || req.Context().Err() != nil) {
		return nil, err
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(""))}, nil
}

// classifier adapts a Client with opts to the suite's Do: Classify on the
// request's context, at its URL, with the suite's clock, random source and
// transport. A with other than nil replaces Classify's WithBackoff, for
// the old implementations.
func classifier(opts llmclient.Options, with backoff) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		opts.Clock, opts.Random = s.Clock, s.Rand.Float64
		c := llmclient.Client{HTTP: &http.Client{Transport: s.Transport}, Model: "m", Backoff: opts}
		return func(req *http.Request) (*http.Response, error) {
			c := c
			c.URL = req.URL.String()
			var err error
			if with == nil {
				_, err = c.Classify(req.Context(), "my card was charged twice")
			} else {
				_, err = with(req.Context(), func(ctx context.Context) (string, error) {
					return c.Complete(ctx, "Answer with one word.\n\nmy card was charged twice")
				}, c.Backoff)
			}
			return answered(req, err)
		}
	}
}

func TestClientConforms(t *testing.T) {
	conformance.TestClient(t, contract, classifier(llmclient.Options{MaxAttempts: 7}, nil), noConnectionRetries)
}

// With a Budget of 10s of its own, the call ends in the middle of a wait,
// and a hint longer than what is left ends it too.
func TestClientBudgetConforms(t *testing.T) {
	spec := contract
	spec.Budget = 10 * time.Second
	conformance.TestClient(t, spec, classifier(llmclient.Options{MaxAttempts: 7, Budget: 10 * time.Second}, nil), noConnectionRetries)
}

// readsNoHints are the properties an old loop fails because it reads no
// Retry-After at all: the seed added hints with the fixes. (A malformed
// hint passes: it must fall back to the backoff, which is all they do.)
var readsNoHints = []string{"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterAbsurd"}

// The seed's four old implementations each fail the properties that name
// their bug, and no other.
func TestOldBackoffsFailConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		with backoff
		want []string
	}{
		// A wait before every attempt: the first is late, and each wait
		// is the next one's, so the ladder runs a rung up.
		{"sleep first", llmclient.WithBackoffSleepFirst[string], append([]string{"FirstAttemptImmediate", "WaitsInWindows", "JitterFromSource"}, readsNoHints...)},
		// 16s after 8s: past the ceiling, and the waits at the cap spread
		// over two windows.
		{"clamped exponent", llmclient.WithBackoffClampedExponent[string], append([]string{"WaitsInWindows", "NoSpikeAtCap"}, readsNoHints...)},
		// 500ms every time: never the windows' tops, never the cap.
		{"constant delay", llmclient.WithBackoffConstantDelay[string], append([]string{"WaitsInWindows", "JitterFromSource", "CapReached", "NoSpikeAtCap"}, readsNoHints...)},
		// strconv.ParseFloat: no dates, no ceiling, and "NaN" a hot loop.
		{"NaN Retry-After", llmclient.WithBackoffNaNRetryAfter[string], []string{"RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterAbsurd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := conformance.CheckClient(contract, classifier(llmclient.Options{MaxAttempts: 7}, tc.with), noConnectionRetries)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Failed(); !slices.Equal(got, tc.want) {
				t.Errorf("failed %v, want %v\n%s", got, tc.want, r)
			}
		})
	}
}
