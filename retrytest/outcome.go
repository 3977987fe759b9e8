package retrytest

import (
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Outcome is how an attempt ended, as a pure policy ([DecideFunc]) is
// shown it: an HTTP status with its header, or an error. The conformance
// suite hands a policy every outcome of its contract; package policysim
// hands it a transient failure, a 503 with no header.
type Outcome struct {
	// Status is the response's status, or 0 when the attempt ended with
	// Err (a connection reset, a timeout, a permanent error).
	Status int
	// Header is the response's header, with Retry-After when the server
	// sent one.
	Header http.Header
	// Body is the response's body: the server's error document, for a
	// policy that decides on it (a JSON error with a retry flag).
	Body string
	// Err is the attempt's error when there was no response.
	Err error
	// Now is when the attempt ended, on the policy's clock: the instant an
	// HTTP-date in Retry-After is read against.
	Now time.Time
}

// Response returns the outcome as the response a client would have read,
// Body and all, or nil when it is an error.
func (o Outcome) Response() *http.Response {
	if o.Status == 0 {
		return nil
	}
	h := o.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{
		Status:     schedfmt.Status(o.Status),
		StatusCode: o.Status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h,
		Body:   io.NopCloser(strings.NewReader(o.Body)),
	}
}

// String describes the outcome: "503 Service Unavailable, Retry-After: 7",
// "connection reset by peer".
func (o Outcome) String() string {
	if o.Status == 0 {
		if o.Err == nil {
			return "<nil>"
		}
		return o.Err.Error()
	}
	s := schedfmt.Status(o.Status)
	if v := o.Header.Get("Retry-After"); v != "" {
		s += ", Retry-After: " + v
	}
	return s
}

// DecideFunc is a pure retry policy: after the attempt numbered failed (0
// for the first call) ends with o, it decides whether to retry and how
// long to wait, drawing from rng alone. It is the one policy shape of
// retrykit: conformance.TestPolicy checks one, package policysim runs a
// fleet of them, and [Policy.Decide] is one.
type DecideFunc func(failed int, o Outcome, rng *rand.Rand) Decision
