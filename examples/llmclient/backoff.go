package llmclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retryafter"
)

// Options configure WithBackoff. A zero field takes its default; Clock and
// Random are the seams a test replaces.
type Options struct {
	// Base is the ceiling of the first delay. Default 500ms.
	Base time.Duration
	// MaxDelay caps the ceiling: the delays double from Base up to it and
	// then stay there. Default 8s.
	MaxDelay time.Duration
	// MaxAttempts is how many times the operation is called at most, the
	// first call included. Default 5.
	MaxAttempts int
	// MaxRetryAfter caps a server's wait hint: a "Retry-After: 86400" in an
	// incident must not hang the service for a day. Default 60s.
	MaxRetryAfter time.Duration
	// Budget, if positive, is the total time WithBackoff may take: the
	// attempts and the waits run under a context that ends Budget after
	// the start on Clock, so a wait that would end at or after it is cut
	// short at the budget, and WithBackoff returns an error wrapping
	// context.DeadlineExceeded.
	Budget time.Duration
	// Random returns a number in [0, 1) that places each delay in the upper
	// half of its ceiling. Default: math/rand/v2's Float64.
	Random func() float64
	// Clock times the waits and the budget. Default: the real clock.
	Clock clockwork.Clock
}

// The defaults of Options.
const (
	DefaultBase          = 500 * time.Millisecond
	DefaultMaxDelay      = 8 * time.Second
	DefaultMaxAttempts   = 5
	DefaultMaxRetryAfter = 60 * time.Second
)

func (o Options) withDefaults() Options {
	if o.Base <= 0 {
		o.Base = DefaultBase
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if o.Random == nil {
		o.Random = rand.Float64
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	return o
}

// WithBackoff calls op until it succeeds, fails with an error that is not
// a retryable *APIError, or has been called MaxAttempts times. The first
// call is immediate. After failed attempt n it waits:
//
//   - the server's wait hint when a 429 or 503 response has a usable one
//     (Retry-After in seconds or as an HTTP-date, Retry-After-Ms), capped
//     at MaxRetryAfter;
//   - otherwise min(MaxDelay, Base·2^(n-1)) · (0.5 + Random()/2): with
//     Random at its top, 500ms, 1s, 2s, 4s, 8s, 8s. A malformed hint falls
//     back to this delay; it never means "retry at once".
//
// It returns op's value, or an error wrapping op's last error; if ctx
// ends or the Budget runs out during a wait, the error also wraps ctx's
// error or context.DeadlineExceeded.
func WithBackoff[T any](ctx context.Context, op func(ctx context.Context) (T, error), o Options) (T, error) {
	o = o.withDefaults()
	ctx, cancel := o.withBudget(ctx)
	defer cancel()
	for attempt := 1; ; attempt++ {
		v, err := op(ctx)
		ae, retryable := errors.AsType[*APIError](err)
		if err == nil || !retryable || !ae.Retryable() || attempt == o.MaxAttempts {
			return v, err
		}
		if werr := clockctx.Sleep(ctx, o.Clock, o.delay(attempt, ae)); werr != nil {
			var zero T
			return zero, fmt.Errorf("llmclient: gave up after attempt %d: %w: %w", attempt, werr, err)
		}
	}
}

// delay is the wait after failed attempt n: the server's hint if a 429 or
// 503 carries a usable one (retryafter.Limits's default status gate), else
// the exponential backoff.
func (o Options) delay(n int, ae *APIError) time.Duration {
	backoff := o.backoff(n)
	p := retryafter.Limits{Max: o.MaxRetryAfter, Fallback: func(int) time.Duration { return backoff }}
	return p.Apply(ae.response(), o.Clock.Now(), n).Delay
}

// backoff is min(MaxDelay, Base·2^(n-1)) · (0.5 + Random()/2), the clamp
// applied to the result of the doubling, not to its exponent.
func (o Options) backoff(n int) time.Duration {
	ceiling := o.Base
	for i := 1; i < n && ceiling < o.MaxDelay; i++ {
		ceiling *= 2
	}
	ceiling = min(ceiling, o.MaxDelay)
	return time.Duration(float64(ceiling) * (0.5 + 0.5*o.Random()))
}

// withBudget returns a child of ctx that ends Budget from now on the
// clock, or ctx itself when there is no Budget.
func (o Options) withBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	if o.Budget <= 0 {
		return ctx, func() {}
	}
	// clockctx, not clockwork.WithTimeout, which silently falls back to
	// real time for every clock but clockwork's own fake.
	return clockctx.WithTimeout(ctx, o.Clock, o.Budget)
}
