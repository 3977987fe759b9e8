package backoffv4_test

import (
	"errors"
	"testing"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/recorder"
)

// RetryNotify takes backoff.Permanent off on return: the error is the one
// Permanent wraps, the very value, so errors.As for a *backoff.PermanentError
// finds nothing. (The conformance tests pin that Permanent ends the call
// after one attempt without a wait; they accept either error.)
func TestRecipePermanentIsUnwrapped(t *testing.T) {
	permanent := backoff.Permanent(errBadRequest)
	err := backoff.RetryNotifyWithTimer(func() error { return permanent }, backoff.NewExponentialBackOff(), nil, recorder.New().InstantTimer())
	if err != errBadRequest {
		t.Errorf("RetryNotifyWithTimer() = %#v, want errBadRequest itself", err)
	}
	if pe := (*backoff.PermanentError)(nil); errors.As(err, &pe) {
		t.Errorf("errors.As(err, *backoff.PermanentError) = true, want false: the marker is not in the returned chain")
	}
}
