package retrygo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// MaxDelay caps after the jitter: past the first retry every delay is exactly
// the cap, with no jitter left.
func TestRecipeMaxDelayCapsAfterJitter(t *testing.T) {
	rec := recorder.New()
	_ = retry.Do(fail(rec), retry.WithTimer(rec), retry.Attempts(6),
		retry.Delay(time.Second), retry.MaxJitter(500*time.Millisecond), retry.MaxDelay(1200*time.Millisecond))
	retrytest.AssertDelaysWithin(t, rec, retrytest.Policy{First: time.Second, Growth: 2, Cap: 1200 * time.Millisecond, Jitter: retrytest.AddedJitter, JitterAmount: 500 * time.Millisecond, CapAfterJitter: true, OpenTop: true, Attempts: 6}.Windows()...)
}

// FullJitterBackoffDelay starts at exponent 1: over many runs the first retry
// draws from all of [0, 2·Delay), not [0, Delay).
func TestRecipeFullJitterFirstExponent(t *testing.T) {
	var first []time.Duration
	for range 400 {
		rec := recorder.New()
		_ = retry.Do(fail(rec), retry.WithTimer(rec), retry.Attempts(4), retry.Delay(time.Second),
			retry.MaxDelay(3*time.Second), retry.DelayType(retry.FullJitterBackoffDelay))
		if !retrytest.AssertDelaysWithin(t, rec, retrytest.Policy{First: time.Second, Growth: 2, Cap: 3 * time.Second, Jitter: retrytest.FullJitter, FirstExponent: 1, OpenTop: true, Attempts: 4}.Windows()...) {
			break
		}
		first = append(first, rec.Delays()[0])
	}
	retrytest.AssertSpread(t, retrytest.Waits(first...), retrytest.Spread{Range: retrytest.Window{Max: 2 * time.Second}, Buckets: 4})
}

// v4.7.0 panics when MaxJitter is 0 with the default DelayType: RandomDelay
// calls rand.Int63n(0). (v5 returns 0 instead.)
func TestRecipeMaxJitterZeroPanics(t *testing.T) {
	defer func() {
		if got := fmt.Sprint(recover()); got != "invalid argument to Int63n" {
			t.Errorf("retry.Do(MaxJitter(0)) panicked with %q, want %q", got, "invalid argument to Int63n")
		}
	}()
	_ = retry.Do(fail(recorder.New()), retry.WithTimer(recorder.New()), retry.MaxJitter(0))
}
