package withretry_test

import (
	"context"
	"errors"
	"time"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

const apiURL = "https://api.example.com/v1/charges"

var (
	errRateLimited = &withretry.RetryableError{Status: 429}
	errUnavailable = &withretry.RetryableError{Status: 503}
	errBadRequest  = errors.New("bad request")
	errRunaway     = errors.New("50 attempts: the retry loop does not stop")
)

// retryFunc is WithRetry's shape, for running the same checks against the
// old implementations.
type retryFunc = func(context.Context, func(context.Context, int) (string, error), withretry.Options, withretry.Deps) (string, error)

// call is the function under retry: attempt i marks itself on rec and
// returns errs[i] (the last of errs for every later attempt); a nil error
// succeeds with "ok". From attempt 50 on it fails with errRunaway, which is
// not retryable, so a retry loop that never stops fails its test instead of
// hanging it.
func call(rec *recorder.Recorder, errs ...error) func(context.Context, int) (string, error) {
	return func(_ context.Context, attempt int) (string, error) {
		rec.Attempt()
		err := errs[min(attempt, len(errs)-1)]
		if attempt >= 50 {
			err = errRunaway
		}
		rec.AttemptResult(err)
		if err != nil {
			return "", err
		}
		return "ok", nil
	}
}

// deps records the waits on rec instead of sleeping and draws from src.
func deps(rec *recorder.Recorder, src *seqrand.Source) withretry.Deps {
	return withretry.Deps{Sleep: rec.SleepContext, Random: src.Float64}
}

// exhaust runs retry over a call that always fails with a 503, five
// attempts on the default ladder, drawing from src, and returns the
// recorded schedule.
func exhaust(retry retryFunc, src *seqrand.Source) *recorder.Recorder {
	rec := recorder.New()
	_, _ = retry(context.Background(), call(rec, errUnavailable), withretry.Options{Attempts: 5}, deps(rec, src))
	return rec
}

// windows are the jitter windows of the default ladder's four waits, from
// the seed's numbers (baseMs 1000, maxMs 30000): ⌊random·ceiling⌋ with
// random in [0, 1) is in [0, ceiling).
var windows = retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 5}.Windows()

// viaVendor is the function under retry for the nested test: one call of
// the vendor client, whose 5xx errors WithRetry may retry again.
func viaVendor(c *withretry.VendorClient) func(context.Context, int) (string, error) {
	return func(ctx context.Context, _ int) (string, error) {
		b, err := c.Get(ctx, apiURL)
		if ve, ok := errors.AsType[*withretry.VendorError](err); ok && ve.StatusCode >= 500 {
			return "", &withretry.RetryableError{Status: ve.StatusCode}
		}
		return string(b), err
	}
}

// pinned is the time the Retry-After tests read dates against.
var pinned = time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC)
