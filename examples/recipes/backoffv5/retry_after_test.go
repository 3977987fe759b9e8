package backoffv5_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// A RetryAfter hint replaces the delay and resets the BackOff: 1s, 2s, then the
// hint's 7s, then 1s and 2s again.
func TestRecipeRetryAfterResetsTheBackOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := recorder.NewStopwatch()
		b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: time.Minute}
		_, _ = backoff.Retry(t.Context(), script(sw, errUnavailable, errUnavailable, backoff.RetryAfter(7), errUnavailable, errUnavailable, nil),
			backoff.WithBackOff(b))
		retrytest.AssertDelays(t, sw, time.Second, 2*time.Second, 7*time.Second, time.Second, 2*time.Second)
	})
}

// A hint longer than MaxElapsedTime (15m by default) makes Retry give up at
// once, without waiting (cenkalti/backoff#159): a "Retry-After: 1200" ends the
// call after one attempt. Clamped by a retryafter.Limits first, it is retried
// after the limits' Max.
func TestRecipeLongRetryAfterGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits *retryafter.Limits
		want   []time.Duration // when the attempts start
	}{
		{"as sent", nil, []time.Duration{0}},
		{"clamped to 5m", &retryafter.Limits{Max: 5 * time.Minute}, []time.Duration{0, 5 * time.Minute}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sw := recorder.NewStopwatch()
				_, err := backoff.Retry(t.Context(), script(sw, retryAfter("1200", tc.limits), nil))
				retrytest.AssertAttemptsAt(t, sw, tc.want...)
				if _, isHint := errors.AsType[*backoff.RetryAfterError](err); isHint != (tc.limits == nil) {
					t.Errorf("Retry() = %v; a *RetryAfterError: %t, want %t", err, isHint, tc.limits == nil)
				}
			})
		})
	}
}

// retryAfter turns a Retry-After value into backoff's error, through p when
// there is one.
func retryAfter(value string, p *retryafter.Limits) error {
	h, err := retryafter.ParseField("Retry-After", value, time.Now())
	if p != nil {
		h.Delay = p.ApplyHint(h, err, 1).Delay
	}
	return backoff.RetryAfter(int(h.Delay / time.Second))
}
