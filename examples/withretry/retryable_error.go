package withretry

import (
	"fmt"
	"net/http"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// RetryableError is a failure worth retrying: a 429 or a 5xx response.
// WithRetry retries an error only if it is, or wraps, a *RetryableError.
type RetryableError struct {
	// Status is the response's status code.
	Status int
	// RetryAfter is the wait the server asked for, when HasRetryAfter is
	// set. It replaces WithRetry's computed delay.
	RetryAfter time.Duration
	// HasRetryAfter reports that the response carried a usable
	// Retry-After field, in seconds or as an HTTP-date.
	HasRetryAfter bool
}

// Error returns "retryable " and the status line.
func (e *RetryableError) Error() string {
	return fmt.Sprintf("retryable %d %s", e.Status, http.StatusText(e.Status))
}

// StatusError is a response whose status is not worth retrying, such as
// a 400 or a 404.
type StatusError struct {
	// Status is the response's status code.
	Status int
}

// Error returns the status line.
func (e *StatusError) Error() string {
	return fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))
}

// ResponseError returns nil for a response below 400, a *RetryableError
// for a 429 or a 5xx, and a *StatusError for any other. now is the instant
// the response arrived, against which a Retry-After date is read. A
// malformed Retry-After is ignored, so the computed delay applies; one
// longer than retryafter.DefaultMax (5 minutes) is cut down to it.
func ResponseError(resp *http.Response, now time.Time) error {
	switch {
	case resp.StatusCode < 400:
		return nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		d, err := retryafter.Parse(resp.Header.Get("Retry-After"), now)
		return &RetryableError{Status: resp.StatusCode, RetryAfter: min(d, retryafter.DefaultMax), HasRetryAfter: err == nil}
	}
	return &StatusError{Status: resp.StatusCode}
}
