package httpscript

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// Reply is one step of a [Transport]'s script: a response (status,
// header, body) or an error, served once by default, or n times
// ([Reply.Times]), or for every request from then on ([Reply.Always]).
//
// Build replies with [Respond], [Fail], [ConnReset] and [IOTimeout] and
// refine them with the chained methods, each of which returns a modified
// copy, so a Reply can be reused as a template:
//
//	limited := httpscript.Respond(429).RetryAfter(7 * time.Second)
//	tr := httpscript.NewTransport(t, limited, httpscript.Respond(200).Body(`{"ok":true}`))
//
// A mistake in building a reply (a status outside 100-999, a negative
// count or duration, a header on an error reply) is reported through t
// by the NewTransport or Transport.Route call that receives it, naming
// the reply. The step stays in the script, without the refinement that
// was mistaken, so that one mistake gives one message.
type Reply struct {
	status   int
	header   http.Header
	body     string
	err      error
	times    int // 0 until Once or Times sets it: once
	always   bool
	latency  time.Duration
	noEffect bool
	problems []string
}

// Respond returns a reply with the given status code and no header or
// body. Its Status line is the code and its text, "429 Too Many Requests".
func Respond(status int) Reply {
	r := Reply{status: status}
	if status < 100 || status > 999 {
		r = r.problem("Respond(%d): status outside 100-999", status)
	}
	return r
}

// Fail returns a reply that makes RoundTrip return err instead of a
// response, as a transport does when the connection fails; the
// [net/http.Client] wraps it in a [*net/url.Error].
func Fail(err error) Reply {
	if err == nil {
		return Reply{err: errFailNil}.problem("Fail(nil): want an error; use Respond for a response")
	}
	return Reply{err: err}
}

// ConnReset returns a reply that fails like a connection reset by the
// server: a [*net.OpError] wrapping [syscall.ECONNRESET], so
// errors.Is(err, syscall.ECONNRESET) holds for the error the client gets.
// Its text is "read tcp: read: connection reset by peer" (on Linux).
func ConnReset() Reply {
	return Fail(&net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)})
}

// IOTimeout returns a reply that fails like a read that timed out: a
// [*net.OpError] wrapping [os.ErrDeadlineExceeded], so the error the
// client gets is a [net.Error] whose Timeout method reports true. Its text
// is "read tcp: i/o timeout".
func IOTimeout() Reply {
	return Fail(&net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded})
}

// Header returns a copy of r that adds the header field key: value.
// Calling it again with the same key adds another field line.
func (r Reply) Header(key, value string) Reply {
	if r.err != nil {
		return r.problem("Header(%q, %q) on an error reply: an error has no header", key, value)
	}
	if key == "" {
		return r.problem("Header(%q, %q): empty field name", key, value)
	}
	h := r.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	r.header = h
	return r
}

// RetryAfter returns a copy of r with a Retry-After field giving d in
// delay-seconds, as [retryafter.FormatSeconds] writes it: whole seconds,
// a fraction rounded up ("7" for 7s, "2" for 1.5s).
func (r Reply) RetryAfter(d time.Duration) Reply {
	if d < 0 {
		return r.problem("RetryAfter(%s): negative delay", schedfmt.Duration(d))
	}
	return r.Header("Retry-After", retryafter.FormatSeconds(d))
}

// RetryAfterDate returns a copy of r with a Retry-After field naming the
// instant at as an HTTP-date in form f ([retryafter.IMFFixdate],
// [retryafter.RFC850] or [retryafter.Asctime]), as
// [retryafter.FormatHTTPDate] writes it. Inside a synctest bubble, time
// starts at 2000-01-01T00:00:00Z, so time.Now().Add(7*time.Second) names
// a date 7s after the bubble starts.
func (r Reply) RetryAfterDate(at time.Time, f retryafter.DateForm) (out Reply) {
	defer func() {
		if p := recover(); p != nil {
			out = r.problem("RetryAfterDate(%s, %d): %v", at.UTC().Format(time.RFC3339), int(f), p)
		}
	}()
	return r.Header("Retry-After", retryafter.FormatHTTPDate(at, f))
}

// Body returns a copy of r whose response carries body. A response to a
// HEAD request never carries one.
func (r Reply) Body(body string) Reply {
	if r.err != nil {
		return r.problem("Body(%q) on an error reply: an error has no body", schedfmt.Cut(body, 20))
	}
	r.body = body
	return r
}

// Once returns a copy of r that is served for one request, then the
// script moves on. It is the default.
func (r Reply) Once() Reply { return r.Times(1) }

// Times returns a copy of r that is served for n requests in a row before
// the script moves on. n must be at least 1.
func (r Reply) Times(n int) Reply {
	if n < 1 {
		return r.problem("Times(%d): want a count >= 1", n)
	}
	r.times, r.always = n, false
	return r
}

// Always returns a copy of r that is served for every request from then
// on: the script never moves past it, so it must be the last step.
func (r Reply) Always() Reply {
	r.times, r.always = 0, true
	return r
}

// Latency returns a copy of r that the transport serves only after d has
// passed, on the transport's clock (see [Transport.WithClock]) or, by
// default, with a [time.Timer], which is fake inside a synctest bubble.
// If the request's context ends first, RoundTrip returns the context's
// error instead, as a real transport does when a call times out.
func (r Reply) Latency(d time.Duration) Reply {
	if d < 0 {
		return r.problem("Latency(%s): negative duration", schedfmt.Duration(d))
	}
	r.latency = d
	return r
}

// NoSideEffect returns a copy of r marking a reply the server gives
// without doing the work, such as a 429 from a rate limiter in front of
// it or a 400 from input validation: a [Ledger] attached to the transport
// does not count requests answered with it. By default every request is
// counted, the worst case an idempotency key exists for: the work was done
// and the reply was lost.
func (r Reply) NoSideEffect() Reply {
	r.noEffect = true
	return r
}

// String describes the reply on one line, without its count, for example
// `429 Too Many Requests, Retry-After: 7, body "slow down"` or
// "error: read tcp: i/o timeout".
func (r Reply) String() string {
	var parts []string
	if r.err != nil {
		parts = append(parts, "error: "+schedfmt.Cell(r.err.Error(), 60))
	} else {
		parts = append(parts, schedfmt.Status(r.status))
		keys := make([]string, 0, len(r.header))
		for k := range r.header {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			for _, v := range r.header[k] {
				parts = append(parts, k+": "+schedfmt.Cell(v, 40))
			}
		}
		if r.body != "" {
			parts = append(parts, "body "+strconv.Quote(schedfmt.Cut(r.body, 20)))
		}
	}
	if r.latency > 0 {
		parts = append(parts, "after "+schedfmt.Duration(r.latency))
	}
	if r.noEffect {
		parts = append(parts, "no side effect")
	}
	return strings.Join(parts, ", ")
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

// limit is how many requests the reply serves; 0 for always.
func (r Reply) limit() int {
	if r.always {
		return 0
	}
	return max(r.times, 1)
}

// problem returns a copy of r that carries a building mistake, reported
// when the reply is handed to a Transport.
func (r Reply) problem(format string, args ...any) Reply {
	r.problems = append(slices.Clip(r.problems), fmt.Sprintf(format, args...))
	return r
}

// errFailNil is what a Fail(nil) step returns, so that it still fails.
var errFailNil = errors.New("httpscript: Fail(nil) reply")
