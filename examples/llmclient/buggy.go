package llmclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/clockctx"
)

// The old implementations below are WithBackoff as it was before four
// fixes, one function per bug, each otherwise as close to WithBackoff as
// the bug allows. They are kept so that the tests prove retrykit catches
// each bug: the checks that pass on WithBackoff fail on them. Do not use
// them.

// WithBackoffSleepFirst is the old loop written as "sleep, then try": it
// waits before the first attempt too, adding 500ms of latency to every
// call in production for no benefit at all.
func WithBackoffSleepFirst[T any](ctx context.Context, op func(ctx context.Context) (T, error), o Options) (T, error) {
	o = o.withDefaults()
	ctx, cancel := o.withBudget(ctx)
	defer cancel()
	var v T
	var err error
	for attempt := 1; attempt <= o.MaxAttempts; attempt++ {
		if werr := clockctx.Sleep(ctx, o.Clock, o.backoff(attempt)); werr != nil { // bug: before attempt 1 too
			var zero T
			return zero, fmt.Errorf("llmclient: gave up before attempt %d: %w", attempt, werr)
		}
		v, err = op(ctx)
		if ae, ok := errors.AsType[*APIError](err); err == nil || !ok || !ae.Retryable() {
			return v, err
		}
	}
	return v, err
}

// WithBackoffClampedExponent is the old implementation that clamped the
// exponent instead of the delay, with a ratio mistaken for an exponent:
// min(n-1, MaxDelay/Base) is 16 for 500ms and 8s, so the delays go on
// doubling past the ceiling: 500ms, 1s, 2s, 4s, 8s and then 16s. Only the
// sixth delay shows it.
func WithBackoffClampedExponent[T any](ctx context.Context, op func(ctx context.Context) (T, error), o Options) (T, error) {
	o = o.withDefaults()
	ctx, cancel := o.withBudget(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		v, err := op(ctx)
		ae, retryable := errors.AsType[*APIError](err)
		if err == nil || !retryable || !ae.Retryable() || attempt == o.MaxAttempts {
			return v, err
		}
		ceiling := o.Base << min(attempt-1, int(o.MaxDelay/o.Base)) // bug: min(MaxDelay, Base<<(attempt-1))
		backoff := time.Duration(float64(ceiling) * (0.5 + 0.5*o.Random()))
		if werr := clockctx.Sleep(ctx, o.Clock, backoff); werr != nil {
			var zero T
			return zero, fmt.Errorf("llmclient: gave up after attempt %d: %w: %w", attempt, werr, err)
		}
	}
}

// WithBackoffConstantDelay is the old implementation whose delay variable
// never grows: it is declared inside the loop, so the doubling at the end
// of each round is lost and every wait is the first one, 500ms.
func WithBackoffConstantDelay[T any](ctx context.Context, op func(ctx context.Context) (T, error), o Options) (T, error) {
	o = o.withDefaults()
	ctx, cancel := o.withBudget(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		delay := o.Base // bug: declared in the loop instead of before it
		v, err := op(ctx)
		ae, retryable := errors.AsType[*APIError](err)
		if err == nil || !retryable || !ae.Retryable() || attempt == o.MaxAttempts {
			return v, err
		}
		if werr := clockctx.Sleep(ctx, o.Clock, time.Duration(float64(delay)*(0.5+0.5*o.Random()))); werr != nil {
			var zero T
			return zero, fmt.Errorf("llmclient: gave up after attempt %d: %w: %w", attempt, werr, err)
		}
		//lint:ignore SA4006 the lost update is the bug this function keeps
		delay = min(2*delay, o.MaxDelay) // lost: the next round declares delay afresh
	}
}

// WithBackoffNaNRetryAfter is the old implementation that read Retry-After
// with strconv.ParseFloat: it accepts "NaN", and a NaN number of seconds
// converts to a delay that is 0 or negative depending on the CPU — either
// way a retry at once, a hot loop against a server that just asked the
// client to slow down. (It also honoured "86400" for a day.)
func WithBackoffNaNRetryAfter[T any](ctx context.Context, op func(ctx context.Context) (T, error), o Options) (T, error) {
	o = o.withDefaults()
	ctx, cancel := o.withBudget(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		v, err := op(ctx)
		ae, retryable := errors.AsType[*APIError](err)
		if err == nil || !retryable || !ae.Retryable() || attempt == o.MaxAttempts {
			return v, err
		}
		delay := o.backoff(attempt)
		if secs, perr := strconv.ParseFloat(ae.Header.Get("Retry-After"), 64); perr == nil { // bug: NaN, Inf and 1e100 parse
			delay = time.Duration(secs * float64(time.Second))
		}
		if werr := clockctx.Sleep(ctx, o.Clock, delay); werr != nil {
			var zero T
			return zero, fmt.Errorf("llmclient: gave up after attempt %d: %w: %w", attempt, werr, err)
		}
	}
}
