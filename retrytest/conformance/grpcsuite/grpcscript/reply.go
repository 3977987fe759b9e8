package grpcscript

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// PushbackKey is the trailer by which a gRPC server tells a client how
// long to wait before its retry, in whole milliseconds (gRFC A6); a
// negative or unreadable value asks it not to retry.
const PushbackKey = "grpc-retry-pushback-ms"

// Reply is one step of a method's script: a status, with its message,
// details, header and trailer metadata, or a hang until the attempt's
// deadline, served once by default, n times ([Reply.Times]) or for every
// attempt from then on ([Reply.Always]).
//
// Build replies with [OK], [Status] and [Hang] and refine them with the
// chained methods, each of which returns a modified copy, so that a Reply
// can serve as a template:
//
//	busy := grpcscript.Status(codes.Unavailable, "overloaded").Pushback(2 * time.Second)
//	grpcscript.Method("/grpc.testing.TestService/UnaryCall", busy, grpcscript.OK())
//
// A reply the server sends without metadata first is trailers-only, the
// only kind of failure grpc-go retries or reads a pushback from (see
// [Reply.Header]). A mistake in building a reply (a negative count or
// duration, a metadata key gRPC keeps for itself) is reported through t by
// the NewServer call that receives it, naming the reply; the step stays in
// the script without the refinement that was mistaken.
type Reply struct {
	code     codes.Code
	msg      string
	details  []proto.Message
	header   metadata.MD
	trailer  metadata.MD
	hang     bool
	latency  time.Duration
	times    int // 0 until Once or Times sets it: once
	always   bool
	problems []string
}

// OK returns a reply that succeeds: the method's response message, empty
// (every field at its default), with status OK. A server-streaming method
// sends that one message, then the status.
func OK() Reply { return Reply{code: codes.OK} }

// Status returns a reply that fails the attempt with code and msg, sent
// trailers-only unless [Reply.Header] adds metadata to send first.
// Status(codes.OK, …) is a mistake: use OK.
func Status(code codes.Code, msg string) Reply {
	r := Reply{code: code, msg: msg}
	switch {
	case code == codes.OK:
		r.code = codes.Unknown
		return r.problem("Status(OK, %q): a success is OK()", msg)
	case code > codes.Unauthenticated:
		return r.problem("Status(%d, %q): not a gRPC status code (0-16)", uint32(code), msg)
	}
	return r
}

// Hang returns a reply that never comes: the attempt waits until its
// context ends — its deadline passes, the client cancels it, or the
// server closes — and ends with that context's status, as a server that
// hangs does. An attempt without a deadline hangs until the client gives
// up or the test closes the server.
func Hang() Reply { return Reply{hang: true} }

// Details returns a copy of r whose status carries details, such as a
// google.rpc.RetryInfo (status.WithDetails). Only a failure has details.
func (r Reply) Details(details ...proto.Message) Reply {
	if r.code == codes.OK || r.hang {
		return r.problem("Details(…) on %s: only a failure carries details", r.kind())
	}
	for _, d := range details {
		if d == nil {
			return r.problem("Details(nil)")
		}
	}
	r.details = append(slices.Clip(r.details), details...)
	return r
}

// Pushback returns a copy of r with the trailer grpc-retry-pushback-ms
// asking the client to wait d before its retry (gRFC A6), in place of any
// pushback set before. d must be a whole number of milliseconds, 0 or
// more; for a malformed, negative or repeated value, which asks the
// client not to retry, use [Reply.Trailer] with [PushbackKey].
func (r Reply) Pushback(d time.Duration) Reply {
	if d < 0 || d%time.Millisecond != 0 {
		return r.problem("Pushback(%s): want a whole number of milliseconds, 0 or more (Trailer(PushbackKey, …) sends any value)", schedfmt.Duration(d))
	}
	r.trailer = r.trailer.Copy()
	if r.trailer == nil {
		r.trailer = metadata.MD{}
	}
	r.trailer.Set(PushbackKey, strconv.FormatInt(d.Milliseconds(), 10))
	return r
}

// Trailer returns a copy of r that adds values to the trailer key. Keys
// beginning "grpc-" are gRPC's own; of those only grpc-retry-pushback-ms
// may be scripted.
func (r Reply) Trailer(key string, values ...string) Reply {
	key = strings.ToLower(key)
	if p := badKey(key, true); p != "" {
		return r.problem("Trailer(%q): %s", key, p)
	}
	r.trailer = r.trailer.Copy()
	if r.trailer == nil {
		r.trailer = metadata.MD{}
	}
	r.trailer.Append(key, values...)
	return r
}

// Header returns a copy of r that adds values to the header key, sent
// before the status: the response is then not trailers-only, and grpc-go
// neither retries such a failure nor reads its pushback (stream.go:836).
// Keys beginning "grpc-" are gRPC's own.
func (r Reply) Header(key string, values ...string) Reply {
	key = strings.ToLower(key)
	if p := badKey(key, false); p != "" {
		return r.problem("Header(%q): %s", key, p)
	}
	r.header = r.header.Copy()
	if r.header == nil {
		r.header = metadata.MD{}
	}
	r.header.Append(key, values...)
	return r
}

// badKey says what is wrong with a metadata key a script sets, or "".
func badKey(key string, trailer bool) string {
	switch {
	case key == "":
		return "empty key"
	case trailer && key == PushbackKey:
		return ""
	case strings.HasPrefix(key, "grpc-") || strings.HasPrefix(key, ":"):
		return "gRPC keeps the key for itself"
	}
	return ""
}

// Latency returns a copy of r that the server sends only after d, on the
// server's clock (see [Server.WithClock]) or, by default, the time
// package's, which is fake inside a synctest bubble. If the attempt's
// context ends first, the attempt ends with its status instead.
func (r Reply) Latency(d time.Duration) Reply {
	if d < 0 {
		return r.problem("Latency(%s): negative duration", schedfmt.Duration(d))
	}
	r.latency = d
	return r
}

// Once returns a copy of r that is served for one attempt, then the
// script moves on. It is the default.
func (r Reply) Once() Reply { return r.Times(1) }

// Times returns a copy of r that is served for n attempts in a row before
// the script moves on. n must be at least 1.
func (r Reply) Times(n int) Reply {
	if n < 1 {
		return r.problem("Times(%d): want a count >= 1", n)
	}
	r.times, r.always = n, false
	return r
}

// Always returns a copy of r that is served for every attempt from then
// on: the script never moves past it, so it must be its last step.
func (r Reply) Always() Reply {
	r.times, r.always = 0, true
	return r
}

// String describes the reply on one line, without its count, for example
// `Unavailable "overloaded", trailer grpc-retry-pushback-ms: 2000` or
// "hang until the deadline, after 1s".
func (r Reply) String() string {
	parts := []string{r.answer()}
	if r.latency > 0 {
		parts = append(parts, "after "+schedfmt.Duration(r.latency))
	}
	return strings.Join(parts, ", ")
}

// answer describes what the reply answers, without its latency: the
// result of an attempt it served.
func (r Reply) answer() string {
	var parts []string
	switch {
	case r.hang:
		parts = append(parts, "hang until the deadline")
	case r.msg != "":
		parts = append(parts, r.code.String()+" "+strconv.Quote(schedfmt.Cut(r.msg, 30)))
	default:
		parts = append(parts, r.code.String())
	}
	for _, d := range r.details {
		parts = append(parts, "detail "+string(proto.MessageName(d)))
	}
	parts = append(parts, mdParts("header", r.header)...)
	return strings.Join(append(parts, mdParts("trailer", r.trailer)...), ", ")
}

// mdParts describes each key of md, in order: "trailer k: v1, v2".
func mdParts(what string, md metadata.MD) []string {
	keys := make([]string, 0, len(md))
	for k := range md {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s %s: %s", what, k, schedfmt.Cell(strings.Join(md[k], ", "), 40)))
	}
	return out
}

// kind names what the reply is, for a mistake's message.
func (r Reply) kind() string {
	switch {
	case r.hang:
		return "Hang()"
	case r.code == codes.OK:
		return "OK()"
	}
	return "a failure"
}

// count describes how often the reply is served: "once", "3 times",
// "always".
func (r Reply) count() string {
	switch {
	case r.always:
		return "always"
	case r.times <= 1:
		return "once"
	}
	return strconv.Itoa(r.times) + " times"
}

// limit is how many attempts the reply serves; 0 for always.
func (r Reply) limit() int {
	if r.always {
		return 0
	}
	return max(r.times, 1)
}

// problem returns a copy of r that carries a building mistake, reported
// when the reply is handed to NewServer.
func (r Reply) problem(format string, args ...any) Reply {
	r.problems = append(slices.Clip(r.problems), fmt.Sprintf(format, args...))
	return r
}

// v1 turns the details into what status.WithDetails takes.
func v1(details []proto.Message) []protoadapt.MessageV1 {
	out := make([]protoadapt.MessageV1, len(details))
	for i, d := range details {
		out[i] = protoadapt.MessageV1Of(d)
	}
	return out
}
