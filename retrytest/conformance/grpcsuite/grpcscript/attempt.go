package grpcscript

import (
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/metadata"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Attempt is one attempt of a call that reached the server, as
// [Server.Attempts] reports it. Every field is a copy.
type Attempt struct {
	// Index is the 1-based number of the attempt among all the attempts
	// the server received: 3 for the third.
	Index int
	// At is when the attempt reached the server, on the server's clock:
	// the time package's, which is fake inside a synctest bubble, unless
	// Server.WithClock gave another. Outside a bubble without a clock it
	// is the real time, which the server's texts and schedule leave out.
	At time.Time
	// Method is the full name of the method called,
	// "/grpc.testing.TestService/UnaryCall".
	Method string
	// Metadata is the metadata the attempt carried, as the server read
	// it: the caller's, and what the client's retries add —
	// grpc-previous-rpc-attempts from grpc-go's retry policy,
	// x-retry-attempt from go-grpc-middleware's interceptor.
	Metadata metadata.MD
	// Deadline is the time the attempt had left before its deadline when
	// it arrived (its grpc-timeout, which grpc-go rounds up to the unit
	// it sends), or 0 when it carried none; a deadline already past is
	// 1ns. Inside a bubble it is exact; outside one the deadline is on the
	// real clock (grpc-go reads it with time.Until), and the value varies
	// by the microseconds the attempt took to arrive.
	Deadline time.Duration
	// Step is the 1-based step of the method's script that answered, or
	// 0 for an unexpected attempt.
	Step int
	// Result is what the server answered: the reply ("OK",
	// `Unavailable "overloaded"`), how a hang or a late reply ended
	// ("hung until: context deadline exceeded"), or "unexpected attempt".
	Result string

	hint         string // the reply's pushback, for the schedule
	realDeadline bool   // Deadline was measured on the real clock
}

// result is the attempt's Result with its pushback, if any: the result
// column of the server's schedule.
func (a Attempt) result() string {
	if a.hint == "" {
		return a.Result
	}
	return a.Result + " " + a.hint
}

// deadlineCell is the attempt's deadline for a table: "-" for none,
// "set" when it was measured on the real clock (its value varies).
func (a Attempt) deadlineCell() string {
	switch {
	case a.Deadline == 0:
		return "-"
	case a.realDeadline:
		return "set"
	}
	return schedfmt.Duration(a.Deadline)
}

// retryCell shows the metadata by which a retrying client numbers its
// attempts, "-" for none.
func (a Attempt) retryCell() string {
	out := ""
	for _, k := range []string{"grpc-previous-rpc-attempts", "x-retry-attempt"} {
		if v := a.Metadata.Get(k); len(v) > 0 {
			if out != "" {
				out += ", "
			}
			out += k + ": " + schedfmt.Cell(strings.Join(v, ","), 10)
		}
	}
	if out == "" {
		return "-"
	}
	return out
}

// pushbackHint describes the pushback a reply's trailer carries, as gRFC
// A6 reads it: "(asks to wait 2s)", or "(asks not to retry)" for a value
// that is negative, unreadable or repeated; "" for none.
func pushbackHint(r Reply) string {
	v := r.trailer.Get(PushbackKey)
	if len(v) == 0 || r.hang {
		return ""
	}
	if len(v) == 1 {
		if ms, err := strconv.Atoi(v[0]); err == nil && ms >= 0 {
			return "(asks to wait " + schedfmt.Duration(time.Duration(ms)*time.Millisecond) + ")"
		}
	}
	return "(asks not to retry)"
}
