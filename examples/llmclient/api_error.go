package llmclient

import (
	"fmt"
	"net/http"
)

// APIError is a response from the API whose status is not 2xx.
type APIError struct {
	// StatusCode is the response's status code.
	StatusCode int
	// Header is the response's header, with its wait hints.
	Header http.Header
	// Message is the API's error message, if the body had one.
	Message string
}

// Error returns the status line and the API's message.
func (e *APIError) Error() string {
	s := fmt.Sprintf("llmclient: %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Retryable reports whether another attempt may succeed: a 408, a 409
// (a conflicting concurrent request), a 429 or a 5xx.
func (e *APIError) Retryable() bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return e.StatusCode >= 500
}

// response is the part of the response that wait hints are read from.
func (e *APIError) response() *http.Response {
	return &http.Response{StatusCode: e.StatusCode, Header: e.Header}
}
