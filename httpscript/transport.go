package httpscript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

var (
	_ http.RoundTripper = (*Transport)(nil)
)

// ErrUnexpectedRequest is wrapped by the error RoundTrip returns for a
// request the script has no reply for.
var ErrUnexpectedRequest = errors.New("httpscript: unexpected request")

// Transport is a scripted [http.RoundTripper] for testing retrying HTTP
// clients without a server or a socket: it answers each request with the
// next reply of a script, records every request with the time it arrived,
// and is the retrytest.Schedule the checks and matchers read:
//
//	tr := httpscript.NewTransport(t,
//		httpscript.Respond(429).RetryAfter(7*time.Second), // once
//		httpscript.Respond(200),
//	)
//	client := &http.Client{Transport: tr}
//	// ... run the retrying code with client ...
//	retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
//
// Because nothing touches the network, it works inside a testing/synctest
// bubble, where a keep-alive socket would keep the bubble from ever going
// idle (golang/go#78492), as well as with a fake clock (see
// [Transport.WithClock]). Outside a bubble and without a clock, it records
// the order of the requests but not their times (see [Transport.RetrySchedule]).
//
// A request that the script has no reply for fails the test through
// t.Errorf, naming the request and printing the script, and RoundTrip
// returns an error wrapping [ErrUnexpectedRequest]: a client that retries
// too often gets an error, never a hang. [Transport.CheckDone] catches the
// opposite, a client that stopped before the script did.
//
// A Transport is safe for concurrent use; its accessors return copies.
// RoundTrip reports through t.Errorf from the client's goroutine, which
// *testing.T allows.
type Transport struct {
	t fakeclock.FixtureT

	mu     sync.Mutex
	clock  clockwork.Clock // nil: the time package
	origin time.Time       // when the schedule starts; zero: at the first request
	ledger *Ledger
	def    *script
	mux    *http.ServeMux
	routes []*script
	reqs   []Request
	bodies []*trackedBody // bodies[i]: the response body of reqs[i], nil for none
	conns  map[string]int // the connections the Handler saw, by the client's address
	// untimed: a request arrived outside a synctest bubble while the
	// transport had no clock, so its time is real and no time is shown.
	untimed bool
}

// NewTransport returns a Transport whose default script is replies, in
// order: the script that answers every request no route matches (see
// [Transport.Route]). Each reply is served once unless [Reply.Times] or
// [Reply.Always] says otherwise. With no replies, every request that no
// route answers is unexpected.
//
// The transport's schedule starts when it is made, if that is inside a
// testing/synctest bubble: the offsets of [Transport.RetrySchedule] count from
// then, so a wait before the first request shows. Outside a bubble, see
// [Transport.WithClock].
//
// Mistakes in the replies are reported through t.Errorf at the call. It
// panics if t is nil.
func NewTransport(t fakeclock.FixtureT, replies ...Reply) *Transport {
	if t == nil {
		panic("httpscript: NewTransport: nil t (want the test's *testing.T, or any fakeclock.FixtureT)")
	}
	t.Helper()
	tr := &Transport{t: t, def: newScript("", replies)}
	if inBubble() {
		tr.origin = time.Now()
	}
	reportReplies(t, "NewTransport", replies)
	return tr
}

// Route adds a script of replies for the requests that pattern matches,
// and returns tr. pattern follows the rules of [http.ServeMux]: "POST
// /v1/charges" matches that method and path, "/v1/" every path under /v1/,
// "GET /items/{id}" any item, "api.example.com/" one host; GET patterns
// match HEAD too, and the most specific pattern wins. Requests no route
// matches get the default script of NewTransport.
//
// A route with no replies makes every request it matches unexpected: the
// way to say an endpoint must not be called. An invalid pattern, or one
// that conflicts with an earlier route, is reported through t.Errorf.
func (tr *Transport) Route(pattern string, replies ...Reply) *Transport {
	tr.t.Helper()
	s := newScript(pattern, replies)
	tr.mu.Lock()
	if tr.mux == nil {
		tr.mux = http.NewServeMux()
	}
	err := registerRoute(tr.mux, pattern, s)
	if err == nil {
		tr.routes = append(tr.routes, s)
	}
	tr.mu.Unlock()
	if err != nil {
		tr.t.Errorf("httpscript: Transport.Route: pattern %q: %v", pattern, err)
		return tr
	}
	reportReplies(tr.t, "Transport.Route("+strconv.Quote(pattern)+")", replies)
	return tr
}

var registeredAt = regexp.MustCompile(` \(registered at [^)]*\)`)

// registerRoute adds pattern to mux, turning ServeMux's panic for an invalid
// or conflicting pattern into an error.
func registerRoute(mux *http.ServeMux, pattern string, s *script) (err error) {
	defer func() {
		if p := recover(); p != nil {
			// ServeMux names the file:line of each registration, which is
			// always this function; drop it, and keep the message on one line.
			msg := registeredAt.ReplaceAllString(fmt.Sprint(p), "")
			msg = strings.ReplaceAll(strings.TrimSpace(msg), ":\n", "\n")
			err = errors.New(strings.ReplaceAll(msg, "\n", ": "))
		}
	}()
	mux.Handle(pattern, routeHandler{s})
	return nil
}

// reportReplies reports the mistakes made in building replies, and steps
// that follow an Always step and so can never be served.
func reportReplies(t fakeclock.FixtureT, fn string, replies []Reply) {
	t.Helper()
	always := 0
	for i, r := range replies {
		for _, p := range r.problems {
			t.Errorf("httpscript: %s: reply %d (%s): %s", fn, i+1, r, p)
		}
		if always > 0 {
			t.Errorf("httpscript: %s: reply %d (%s) follows reply %d, which is served always, so it can never be served",
				fn, i+1, r, always)
		}
		if r.always && always == 0 {
			always = i + 1
		}
	}
}

// WithClock makes the transport time requests on c, such as a
// [github.com/retrykit/retrykit/fakeclock.Clock], and wait on it for
// [Reply.Latency]; it returns tr. The transport's schedule starts at
// c.Now() when WithClock is called, so make the transport, with its clock,
// before starting the code under test. Without WithClock the transport uses
// the time package, which is the right choice inside a synctest bubble;
// outside one it then times nothing (see [Transport.RetrySchedule]). A nil c is
// reported through t.Errorf and ignored.
func (tr *Transport) WithClock(c clockwork.Clock) *Transport {
	tr.t.Helper()
	if c == nil {
		tr.t.Errorf("httpscript: Transport.WithClock: nil clock; leave WithClock out to use the time package")
		return tr
	}
	now := c.Now()
	tr.mu.Lock()
	tr.clock, tr.origin = c, now
	tr.mu.Unlock()
	return tr
}

// WithLedger makes the transport present every request that may have a
// side effect to l, and returns tr: every request with a method that is
// not safe by RFC 9110 (anything but GET, HEAD, OPTIONS and TRACE) that
// the script answers, unless the reply is marked [Reply.NoSideEffect].
// Then [Ledger.CheckExactlyOnce] tells whether the side effect happened once
// however often the client retried. A nil l is reported through t.Errorf
// and ignored.
func (tr *Transport) WithLedger(l *Ledger) *Transport {
	tr.t.Helper()
	if l == nil {
		tr.t.Errorf("httpscript: Transport.WithLedger: nil *Ledger; make one with NewLedger")
		return tr
	}
	tr.mu.Lock()
	tr.ledger = l
	tr.mu.Unlock()
	return tr
}

// Client returns an [http.Client] that sends its requests through tr.
func (tr *Transport) Client() *http.Client { return &http.Client{Transport: tr} }

// RoundTrip answers req with the next reply of the script that matches it
// and records the request. It reads and closes req's body. A request whose
// context has already ended is neither sent nor recorded: RoundTrip
// returns the context's error, as a real transport does.
func (tr *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req == nil || req.URL == nil {
		return nil, errors.New("httpscript: Transport.RoundTrip: nil request or URL")
	}
	body, err := readBody(req)
	if err != nil {
		return nil, fmt.Errorf("httpscript: Transport: reading the body of %s %s: %w", requestMethod(req), req.URL, err)
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	a := tr.arrive(req, body, arrival{})
	rec, reply, ok := a.rec, a.reply, a.ok
	if !ok {
		tr.t.Errorf("%s", a.unexpected)
		return nil, fmt.Errorf("%w %d (%s %s): %s", ErrUnexpectedRequest, rec.Attempt, rec.Method, req.URL, a.why)
	}
	ledger, clock := a.ledger, a.clock
	if ledger != nil && !reply.noEffect && !safeMethod(rec.Method) {
		c := req.Clone(ctx)
		c.Body = io.NopCloser(bytes.NewReader(body))
		ledger.Apply(c)
	}
	if reply.latency > 0 {
		if err := clockctx.Sleep(ctx, clock, reply.latency); err != nil {
			tr.unanswered(rec.Attempt, err)
			return nil, err
		}
	}
	if reply.err != nil {
		return nil, reply.err
	}
	resp := scriptedResponse(req, reply)
	if b, ok := resp.Body.(*trackedBody); ok {
		tr.mu.Lock()
		tr.bodies[rec.Attempt-1] = b
		tr.mu.Unlock()
	}
	return resp, nil
}

// arrival is what a Handler adds to a request it records: the
// connection that carried it and its protocol. The zero value is a
// request that RoundTrip received.
type arrival struct {
	remote string // the client's address, which tells the connections apart
	proto  string
}

// arrived is what arrive found: the record of the request, its reply, and
// for a request the script has no reply for, why and the report.
type arrived struct {
	rec             Request
	reply           Reply
	ok              bool
	why, unexpected string
	ledger          *Ledger
	clock           clockwork.Clock
}

// arrive records req, with its body, and picks its reply from the script
// that matches it: the bookkeeping RoundTrip and the Handler share.
func (tr *Transport) arrive(req *http.Request, body []byte, via arrival) arrived {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	timed := tr.clock != nil || !tr.origin.IsZero() || inBubble()
	if !timed {
		tr.untimed = true
	}
	rec := Request{
		Attempt: len(tr.reqs) + 1,
		At:      tr.now(),
		Method:  requestMethod(req),
		URL:     req.URL,
		Header:  req.Header,
		Body:    body,
		Proto:   via.proto,
	}
	if via.remote != "" {
		rec.Conn = tr.connLocked(via.remote)
	}
	rec = rec.clone()
	s := tr.match(req)
	reply, n, ok := s.next()
	rec.Step = n
	rec.Route = s.pattern
	a := arrived{reply: reply, ok: ok, ledger: tr.ledger, clock: tr.clock}
	switch {
	case !ok:
		rec.Result = "unexpected request"
		a.why, a.unexpected = tr.unexpectedLocked(rec, s)
	case reply.err != nil && via.remote != "":
		rec.Result = "aborted the response, for " + reply.err.Error()
	case reply.err != nil:
		rec.Result = reply.err.Error()
	default:
		rec.Result = schedfmt.Status(reply.status)
		rec.hint = waitHint(reply, rec.At, timed)
	}
	tr.reqs = append(tr.reqs, rec)
	tr.bodies = append(tr.bodies, nil)
	a.rec = rec
	return a
}

// unanswered records that request n ended with err, its context's,
// before its reply came: the client never saw the reply.
func (tr *Transport) unanswered(n int, err error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.reqs[n-1].Result = err.Error()
	tr.reqs[n-1].hint = ""
}

// scriptedResponse builds the response reply describes, for req.
func scriptedResponse(req *http.Request, reply Reply) *http.Response {
	h := reply.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	resp := &http.Response{
		Status:        schedfmt.Status(reply.status),
		StatusCode:    reply.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          http.NoBody,
		ContentLength: int64(len(reply.body)),
		Request:       req,
	}
	if req.Method == http.MethodHead {
		return resp
	}
	if reply.body != "" {
		resp.Body = &trackedBody{r: strings.NewReader(reply.body)}
	}
	return resp
}

// unexpectedLocked says why the script s has no reply for rec, and
// describes the request for t.Errorf: what arrived, why no reply was left,
// the script and the requests so far (rec included).
func (tr *Transport) unexpectedLocked(rec Request, s *script) (why, msg string) {
	switch {
	case s != tr.def && len(s.steps) == 0:
		why = "the " + s.name() + " has no replies, so the endpoint must not be called"
	case s != tr.def:
		why = "no reply left in the " + s.name()
	case len(tr.def.steps) > 0:
		why = "no reply left in the default script"
	case len(tr.routes) > 0:
		why = "no route matches it and there is no default script"
	default:
		why = "the transport has no script"
	}
	var b strings.Builder
	at := ""
	if !tr.untimed {
		at = " at +" + schedfmt.Duration(rec.At.Sub(tr.startLocked(rec.At)))
	}
	fmt.Fprintf(&b, "httpscript: Transport: unexpected request %d%s: %s %s: %s\n", rec.Attempt, at, rec.Method, rec.URL, why)
	if s == tr.def && len(tr.def.steps) == 0 {
		if len(tr.routes) > 0 {
			b.WriteString("routes:\n")
			for _, r := range tr.routes {
				fmt.Fprintf(&b, "    %q\n", r.pattern)
			}
		}
	} else {
		b.WriteString(s.name() + ":\n")
		b.WriteString(s.table("  ", false))
	}
	reqs := append(tr.reqs[:len(tr.reqs):len(tr.reqs)], rec)
	fmt.Fprintf(&b, "requests (%d):\n", len(reqs))
	b.WriteString(requestsTable(reqs, tr.startLocked(rec.At), !tr.untimed, "  "))
	return why, strings.TrimSuffix(b.String(), "\n")
}

// startLocked is when the transport's schedule starts: its origin (see
// WithClock and NewTransport) or else the time of the first request, which
// is first when there is none yet.
func (tr *Transport) startLocked(first time.Time) time.Time {
	switch {
	case !tr.origin.IsZero():
		return tr.origin
	case len(tr.reqs) > 0:
		return tr.reqs[0].At
	}
	return first
}

// requestsTable renders requests, one row each, with offsets from start
// when timed, or else in order with "-" for their offsets. When the
// Handler served any of them, a column gives each one's connection and
// protocol.
func requestsTable(reqs []Request, start time.Time, timed bool, indent string) string {
	conns := slices.ContainsFunc(reqs, func(r Request) bool { return r.Conn > 0 })
	tab := schedfmt.Grid{Header: []string{"attempt", "at", "request", "route", "result"}, Indent: indent}
	if conns {
		tab.Header = slices.Insert(tab.Header, 2, "conn")
	}
	for _, r := range reqs {
		route := ""
		if r.Route != "" {
			route = strconv.Quote(r.Route)
		}
		at := "-"
		if timed {
			at = "+" + schedfmt.Duration(r.At.Sub(start))
		}
		cells := []string{strconv.Itoa(r.Attempt), at,
			r.Method + " " + schedfmt.Cell(r.URL.String(), 60), route, schedfmt.Cell(r.Result, 60)}
		if conns {
			conn := "-"
			if r.Conn > 0 {
				conn = strconv.Itoa(r.Conn) + " " + r.Proto
			}
			cells = slices.Insert(cells, 2, conn)
		}
		tab.Rows = append(tab.Rows, schedfmt.GridRow{Cells: cells})
	}
	return tab.String()
}

func (tr *Transport) now() time.Time {
	if tr.clock != nil {
		return tr.clock.Now()
	}
	return time.Now()
}

// Requests returns every request the transport received, in the order
// they arrived. The slice and the requests are copies.
func (tr *Transport) Requests() []Request {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	out := make([]Request, len(tr.reqs))
	for i, r := range tr.reqs {
		out[i] = r.clone()
	}
	return out
}

// RetrySchedule reports the requests received for the checks (see
// retrytest.Schedule): when each arrived, as an offset from the start of the
// transport's schedule, and its result: the status line or the error text,
// followed by the wait the reply asked for, if it carried a hint: "429 Too
// Many Requests, Retry-After: 7 (asks to wait 7s)", so a failure table
// shows a client that ignored it.
//
// The schedule starts when [Transport.WithClock] was called, or else when
// the transport was made inside a testing/synctest bubble, so a wait
// before the first request shows, and the checks flag it. A transport made
// outside a bubble without a clock has no such instant: its schedule
// starts at the first request.
//
// A transport with no clock that receives a request outside a bubble
// could only time it on the real clock, whose offsets change from run to
// run. It keeps the order of its requests but not their times: the failure
// tables show the attempts in order without offsets, and the checks of
// times (retrytest.CheckAttemptsAt, CheckDelays, …) fail, asking for a
// clock. Checks of the count (retrytest.CheckAttempts) work as usual.
func (tr *Transport) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	attempts, results = schedcheck.Offsets(tr.origin, len(tr.reqs), func(i int) (time.Time, string) { return tr.reqs[i].At, tr.reqs[i].result() })
	if tr.untimed {
		clear(attempts)
		untimed = "the httpscript.Transport received requests outside a testing/synctest bubble and has no clock, " +
			"so it knows their order but not their times: make it inside the bubble, or give it a clock with WithClock"
	}
	return attempts, results, nil, untimed
}

// WaitingElsewhere asks the transport's clock, when it is a fake clock
// that can tell, which goroutines of the code under test wait on something
// other than it (see fakeclock's Clock.WaitingElsewhere); a failed check
// prints them under its table. It returns nil otherwise.
func (tr *Transport) WaitingElsewhere() []string {
	tr.mu.Lock()
	c, ok := tr.clock.(interface{ WaitingElsewhere() []string })
	tr.mu.Unlock()
	if !ok {
		return nil
	}
	return c.WaitingElsewhere()
}

// String describes the transport for a failure message: the requests it
// received and its scripts, with how often each reply was served.
func (tr *Transport) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "httpscript.Transport: %s\n", schedfmt.Count(len(tr.reqs), "request"))
	if len(tr.reqs) > 0 {
		b.WriteString(requestsTable(tr.reqs, tr.startLocked(tr.reqs[0].At), !tr.untimed, "  "))
	}
	for _, s := range tr.scriptsLocked() {
		b.WriteString(s.name() + ":\n")
		b.WriteString(s.table("  ", false))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// GomegaString returns the same text as String, so that a Gomega failure
// about a *Transport prints its requests rather than its fields.
func (tr *Transport) GomegaString() string { return tr.String() }

// scriptsLocked returns the default script, when it has steps, then the
// routes in the order they were added.
func (tr *Transport) scriptsLocked() []*script {
	var out []*script
	if len(tr.def.steps) > 0 || len(tr.routes) == 0 {
		out = append(out, tr.def)
	}
	return append(out, tr.routes...)
}

// requestMethod is req's method, "GET" when empty.
func requestMethod(req *http.Request) string {
	if req.Method == "" {
		return http.MethodGet
	}
	return req.Method
}

// safeMethod reports whether m is safe by RFC 9110 §9.2.1: a request that
// has no side effect on the server.
func safeMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}
