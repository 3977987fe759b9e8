package retrygo_test

import (
	"errors"
	"testing"

	"github.com/avast/retry-go/v4"

	"github.com/retrykit/retrykit/recorder"
)

// retry.Do takes retry.Unrecoverable off on return: the error is a
// retry.Error holding the one Unrecoverable wraps, so errors.Is against the
// Unrecoverable value finds nothing. (The conformance tests pin that
// Unrecoverable ends the call after one attempt without a wait; they accept
// either error.)
func TestRecipeUnrecoverableIsUnwrapped(t *testing.T) {
	unrecoverable := retry.Unrecoverable(errBadRequest)
	err := retry.Do(func() error { return unrecoverable }, retry.WithTimer(recorder.New()))
	var log retry.Error
	if !errors.As(err, &log) || len(log) != 1 || log[0] != errBadRequest {
		t.Errorf("retry.Do() = %#v, want retry.Error{errBadRequest}", err)
	}
	if errors.Is(err, unrecoverable) {
		t.Errorf("errors.Is(err, retry.Unrecoverable(errBadRequest)) = true, want false: the Unrecoverable value is not in the returned chain")
	}
}
