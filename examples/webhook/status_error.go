package webhook

import (
	"fmt"
	"net/http"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// StatusError is a delivery the endpoint answered with a status outside
// 2xx.
type StatusError struct {
	// StatusCode is the response's status code.
	StatusCode int
	// RetryAfter is how long the endpoint asked the worker to wait, when
	// HasRetryAfter is set.
	RetryAfter time.Duration
	// HasRetryAfter reports that the response carried a usable Retry-After
	// field. A missing or malformed one leaves it unset: the policy then
	// backs off as for any other failure, never retrying at once.
	HasRetryAfter bool
}

// Error returns the status line, with the Retry-After wait in seconds when
// there was one: "503 Service Unavailable", "429 Too Many Requests,
// Retry-After: 120".
func (e *StatusError) Error() string {
	s := fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.HasRetryAfter {
		s += ", Retry-After: " + retryafter.FormatSeconds(e.RetryAfter)
	}
	return s
}

// ResponseError returns nil for a 2xx response and a *StatusError for any
// other, reading a 429's or 503's Retry-After field relative to now, the
// instant the response arrived.
func ResponseError(resp *http.Response, now time.Time) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	se := &StatusError{StatusCode: resp.StatusCode}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		d, err := retryafter.Parse(resp.Header.Get("Retry-After"), now)
		se.RetryAfter, se.HasRetryAfter = d, err == nil
	}
	return se
}
