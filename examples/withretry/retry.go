package withretry

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// Options are the retry settings. A zero field takes its default.
type Options struct {
	// Attempts is how many times fn is called at most, the first call
	// included: 5 attempts are 4 retries with 4 waits between them.
	// Default 5.
	Attempts int
	// Base is the ceiling of the first wait. Default 1s.
	Base time.Duration
	// Max caps the ceiling of every wait, before the jitter is drawn under
	// it. Default 30s.
	Max time.Duration
}

// The defaults of Options.
const (
	DefaultAttempts = 5
	DefaultBase     = time.Second
	DefaultMax      = 30 * time.Second
)

func (o Options) withDefaults() Options {
	if o.Attempts <= 0 {
		o.Attempts = DefaultAttempts
	}
	if o.Base <= 0 {
		o.Base = DefaultBase
	}
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	return o
}

// Deps are the dependencies that a test replaces: how WithRetry waits,
// where its jitter comes from, and what time Client reads a Retry-After
// date against. A zero field takes the real thing.
type Deps struct {
	// Sleep waits d, or returns ctx's error if ctx ends first. Default:
	// a time.Timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Random returns a number in [0, 1). Default: math/rand/v2's Float64.
	Random func() float64
	// Now returns the current time, against which Client reads a
	// Retry-After date; WithRetry itself never reads the clock. Default:
	// time.Now.
	Now func() time.Time
}

func (d Deps) withDefaults() Deps {
	if d.Sleep == nil {
		d.Sleep = sleep
	}
	if d.Random == nil {
		d.Random = rand.Float64
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return d
}

// sleep is the real Sleep: it waits d on a timer, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WithRetry calls fn until it succeeds, returns an error that is not a
// *RetryableError, or has been called opts.Attempts times; fn gets the
// 0-based number of the attempt. Between attempts it waits:
//
//   - the server's Retry-After, when the error carries one: it replaces
//     the computed delay, it is not added to it;
//   - otherwise a delay drawn with full jitter, ⌊Random()·ceiling⌋ in
//     [0, ceiling), where the ceiling of the wait after attempt i is
//     min(Max, Base·2^i): clamped first, then jittered, so no wait exceeds
//     Max.
//
// It returns fn's value, or the last error. If ctx ends during a wait,
// it returns ctx's error without another attempt.
func WithRetry[T any](ctx context.Context, fn func(ctx context.Context, attempt int) (T, error), opts Options, deps Deps) (T, error) {
	opts, deps = opts.withDefaults(), deps.withDefaults()
	for i := 0; ; i++ {
		v, err := fn(ctx, i)
		re, retryable := errors.AsType[*RetryableError](err)
		if err == nil || !retryable || i == opts.Attempts-1 {
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

// ceiling is min(Max, Base·2^i), without overflowing.
func ceiling(i int, o Options) time.Duration {
	c := o.Base
	for range i {
		if c >= o.Max/2 {
			return o.Max
		}
		c *= 2
	}
	return min(c, o.Max)
}
