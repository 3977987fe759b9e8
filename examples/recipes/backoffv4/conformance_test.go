package backoffv4_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// errBadRequest is the error the operation wraps in backoff.Permanent.
var errBadRequest = errors.New("400 Bad Request")

// defaultPolicy is what backoff v4 documents of NewExponentialBackOff's
// defaults: 500ms growing ×1.5, capped at 60s before a ±50% jitter drawn
// from [a, b+1ns).
var defaultPolicy = retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: time.Minute,
	Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Tolerance: time.Nanosecond}

// defaultSpec is the contract of the defaults: no attempt limit, a 15m
// MaxElapsedTime that gives up when the next wait would end past it, and
// backoff.Permanent ending the call. backoff v4 draws its jitter from the
// math/rand global (rand.Float64 in exponential.go's NextBackOff), which
// no option replaces: OwnRandom.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		Policy:       defaultPolicy,
		Budget:       15 * time.Minute,
		GivesUpEarly: true,
		PermanentErr: backoff.Permanent(errBadRequest),
		OwnRandom:    true,
	}
}

// maxRetriesSpec is the contract of the defaults under WithMaxRetries(b, 5):
// 6 attempts, the first included, which end long before the 15m
// MaxElapsedTime.
func maxRetriesSpec() conformance.Spec {
	p := defaultPolicy
	p.Attempts = 6
	return conformance.Spec{Policy: p, PermanentErr: backoff.Permanent(errBadRequest), OwnRandom: true}
}

// newLoop returns the adapter: backoff v4 as a typical caller writes it, a
// fresh NewExponentialBackOff per call (wrapped by wrap, if not nil) bound
// to the call's context, on the suite's clock: WithClockProvider for
// MaxElapsedTime, and a clockctx.NewTimer for the waits.
func newLoop(wrap func(backoff.BackOff) backoff.BackOff) func(conformance.Seams) conformance.Loop {
	return func(s conformance.Seams) conformance.Loop {
		return func(ctx context.Context, op func(context.Context) error) error {
			var b backoff.BackOff = backoff.NewExponentialBackOff(backoff.WithClockProvider(s.Clock))
			if wrap != nil {
				b = wrap(b)
			}
			return backoff.RetryNotifyWithTimer(func() error { return op(ctx) }, backoff.WithContext(b, ctx), nil, clockctx.NewTimer(s.Clock))
		}
	}
}

// withMaxRetries is backoff.WithMaxRetries(b, 5).
func withMaxRetries(b backoff.BackOff) backoff.BackOff { return backoff.WithMaxRetries(b, 5) }

// NewExponentialBackOff's defaults against what the docs promise: with
// OwnRandom, no gap is left to waive, and any property that breaks fails
// the test.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestLoop(t, defaultSpec(), newLoop(nil))
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/cenkalti/backoff/v4", Name: "backoff v4", Config: "`NewExponentialBackOff()` defaults",
		Claims: "500ms ×1.5 capped at 60s, then ±50% of jitter (math/rand); no attempt limit: gives up when the next wait would end past the 15m `MaxElapsedTime`; `Permanent` ends the call",
	}, r)
}

// The defaults with WithMaxRetries(b, 5), as the recipe's tests use them:
// no gap either, and 6 attempts.
func TestConformanceMaxRetries(t *testing.T) {
	r := conformance.TestLoop(t, maxRetriesSpec(), newLoop(withMaxRetries))
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/cenkalti/backoff/v4", Name: "backoff v4", Config: "`WithMaxRetries(NewExponentialBackOff(), 5)`",
		Claims: "as `NewExponentialBackOff()` defaults, 6 attempts, which end long before the 15m `MaxElapsedTime`",
	}, r)
}
