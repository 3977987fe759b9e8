package retrygo_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// errBadRequest is the error the operation wraps in retry.Unrecoverable.
var errBadRequest = errors.New("400 Bad Request")

// defaultSpec is what retry-go documents of its defaults: ten attempts,
// the first included; Delay 100ms doubling with no MaxDelay, plus
// [0, MaxJitter) of additive jitter, MaxJitter 100ms (CombineDelay of
// BackOffDelay and RandomDelay); retry.Unrecoverable ending the call.
func defaultSpec() conformance.Spec {
	return conformance.Spec{
		Policy: retrytest.Policy{First: 100 * time.Millisecond, Growth: 2, Jitter: retrytest.AddedJitter,
			JitterAmount: 100 * time.Millisecond, OpenTop: true, Attempts: 10},
		PermanentErr: retry.Unrecoverable(errBadRequest),
	}
}

// newLoop returns the adapter: retry.Do as a typical caller writes it,
// bound to the call's context, waiting on the suite's clock
// (retry.WithTimer takes a fakeclock.Clock as it is), with the options
// opts builds from the seams.
func newLoop(opts func(conformance.Seams) []retry.Option) func(conformance.Seams) conformance.Loop {
	return func(s conformance.Seams) conformance.Loop {
		return func(ctx context.Context, op func(context.Context) error) error {
			all := []retry.Option{retry.Context(ctx), retry.WithTimer(s.Clock)}
			if opts != nil {
				all = append(all, opts(s)...)
			}
			return retry.Do(func() error { return op(ctx) }, all...)
		}
	}
}

// seamJitter is the default DelayType with its jitter drawn from the
// suite's source instead of the math/rand global: BackOffDelay plus
// [0, 100ms), the default MaxJitter, as RandomDelay draws it.
func seamJitter(s conformance.Seams) []retry.Option {
	rng := rand.New(s.Rand)
	jitter := func(uint, error, *retry.Config) time.Duration {
		return time.Duration(rng.Int64N(int64(100 * time.Millisecond)))
	}
	return []retry.Option{retry.DelayType(retry.CombineDelay(retry.BackOffDelay, jitter))}
}

// retry-go's defaults against what its docs promise: with OwnRandom, no
// gap is left to waive, and any property that breaks fails the test.
func TestConformanceDefaults(t *testing.T) {
	// RandomDelay draws from the math/rand global (rand.Int63n), which no
	// option replaces: OwnRandom. A DelayType of your own can draw from
	// the seam (seamJitter, below).
	spec := defaultSpec()
	spec.OwnRandom = true
	r := conformance.TestLoop(t, spec, newLoop(nil))
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/avast/retry-go/v4", Name: "retry-go", Config: "defaults",
		Claims: "10 attempts; 100ms·2^k, no cap (no `MaxDelay`), plus [0, 100ms) of jitter (`MaxJitter`, math/rand); `Unrecoverable` ends the call",
	}, r)
}

// The default schedule with its jitter from the caller's source: the
// same Spec holds without a waiver.
func TestConformanceSeamJitter(t *testing.T) {
	r := conformance.TestLoop(t, defaultSpec(), newLoop(seamJitter))
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/avast/retry-go/v4", Name: "retry-go", Config: "default `DelayType` with its jitter from the caller's source (`seamJitter`)",
		Claims: "as the defaults, the jitter drawn from the caller's source",
	}, r)
}
