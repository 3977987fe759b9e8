package withretry

import (
	"context"
	"errors"
	"math"
	"time"
)

// The old implementations below are WithRetry as it was before two fixes,
// one function per bug, each otherwise identical to WithRetry. They are
// kept so that the tests prove retrykit catches each bug: the checks that
// pass on WithRetry fail on them. Do not use them.

// WithRetryExponentFromRetryCount is the old implementation that took the
// exponent from the retry count (1 for the first retry) instead of the
// attempt index (0 after the first attempt): the whole ladder shifts up a
// rung and the first wait is doubled. Only the top of each jitter window
// shows it; a test with the random source at 0 passes.
func WithRetryExponentFromRetryCount[T any](ctx context.Context, fn func(ctx context.Context, attempt int) (T, error), opts Options, deps Deps) (T, error) {
	opts, deps = opts.withDefaults(), deps.withDefaults()
	for i := 0; ; i++ {
		v, err := fn(ctx, i)
		re, retryable := errors.AsType[*RetryableError](err)
		if err == nil || !retryable || i == opts.Attempts-1 {
			return v, err
		}
		retries := i + 1
		delay := time.Duration(math.Floor(deps.Random() * float64(ceiling(retries, opts)))) // bug: ceiling(i, opts)
		if re.HasRetryAfter {
			delay = re.RetryAfter
		}
		if err := deps.Sleep(ctx, delay); err != nil {
			var zero T
			return zero, err
		}
	}
}

// WithRetryCountingRetries is the old implementation that read Attempts as
// a number of retries: five "attempts" made six calls with five waits, one
// more request than configured at a provider that was already refusing.
func WithRetryCountingRetries[T any](ctx context.Context, fn func(ctx context.Context, attempt int) (T, error), opts Options, deps Deps) (T, error) {
	opts, deps = opts.withDefaults(), deps.withDefaults()
	for i := 0; ; i++ {
		v, err := fn(ctx, i)
		re, retryable := errors.AsType[*RetryableError](err)
		if err == nil || !retryable || i == opts.Attempts { // bug: opts.Attempts-1
			return v, err
		}
		delay := time.Duration(math.Floor(deps.Random() * float64(ceiling(i, opts))))
		if re.HasRetryAfter {
			delay = re.RetryAfter
		}
		if err := deps.Sleep(ctx, delay); err != nil {
			var zero T
			return zero, err
		}
	}
}
