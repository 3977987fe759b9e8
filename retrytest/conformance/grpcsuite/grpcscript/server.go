package grpcscript

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
)

var _ retrytest.Schedule = (*Server)(nil)

// Server is a scripted gRPC server in memory, for testing a retrying gRPC
// client without a socket: it answers each attempt at a method with the
// next reply of that method's script, records every attempt with the
// instant it arrived, its metadata and its deadline, and is the
// retrytest.Schedule the checks and matchers read:
//
//	srv := grpcscript.NewServer(t, grpcscript.Method("/grpc.testing.TestService/EmptyCall",
//		grpcscript.Status(codes.Unavailable, "overloaded").Times(2),
//		grpcscript.OK(),
//	))
//	cc, _ := srv.Dial(grpc.WithDefaultServiceConfig(config))
//	// ... run the retrying code with cc ...
//	retrytest.AssertAttempts(t, srv, 3)
//
// Clients reach it by [Server.Dial], or by dialing [Server.Target] with
// [Server.DialOptions]: its listener is in memory, a net.Pipe per
// connection, so it works inside a testing/synctest bubble (make the
// server there) as well as with a fake clock ([Server.WithClock]).
//
// An attempt the script has no reply for fails the test through
// t.Errorf, naming the method and the attempt, and ends with
// codes.Unimplemented: a client that retries too often gets an error,
// never a hang. [Server.CheckDone] catches the opposite. A server that no
// attempt reaches within 5s of real time fails the test naming its target
// (see [Test] for the servers made in a bubble).
//
// A Server is safe for concurrent use; its accessors return copies.
type Server struct {
	t       fakeclock.FixtureT
	lis     *pipeListener
	gs      *grpc.Server
	served  chan error
	bubble  int64        // the synctest bubble the server was made in; 0 for none
	serveID atomic.Int64 // the goroutine of Serve, parked in Accept: the guard's self-check

	mu       sync.Mutex
	clock    clockwork.Clock // nil: the time package
	origin   time.Time       // when the schedule starts; zero: at the first attempt
	scripts  []*script       // in the order given
	attempts []Attempt
	untimed  bool // an attempt arrived outside a bubble with no clock
	ccs      []*grpc.ClientConn
	closed   bool
	watch    *guard.Watch
	guard    *guard.Guard // the server's own, outside a bubble
}

// target is what a client dials: the passthrough resolver hands the
// address to the dialer of DialOptions. Dialed without that dialer, the
// address has no port, so the dial fails at once, without a lookup.
const target = "passthrough:///grpcscript"

// NewServer starts a scripted server with scripts, one per method (see
// [Method]); every attempt at a method without a script is unexpected.
// The server is closed when the test ends ([Server.Close]).
//
// The server's schedule starts when it is made, if that is inside a
// testing/synctest bubble: the offsets of [Server.RetrySchedule] count from
// then, so a wait before the first attempt shows. Outside a bubble, see
// [Server.WithClock].
//
// A script for a method the protobuf registry does not know, a second
// script for a method, and a mistake in a reply are reported through
// t.Errorf at the call; such a script is left out. It panics if t is nil.
func NewServer(t fakeclock.FixtureT, scripts ...Script) *Server {
	if t == nil {
		panic("grpcscript: NewServer: nil t (want the test's *testing.T, or any fakeclock.FixtureT)")
	}
	t.Helper()
	s := &Server{t: t, served: make(chan error, 1)}
	_, s.bubble = goheader.Current()
	if s.bubble != 0 {
		s.origin = time.Now()
	}
	expect := false
	for i, sc := range scripts {
		if _, err := lookupMethod(sc.method); err != nil {
			t.Errorf("grpcscript: NewServer: script %d, for %q: %v", i+1, sc.method, err)
			continue
		}
		if s.script(sc.method) != nil {
			t.Errorf("grpcscript: NewServer: script %d: a second script for %s; give each method one script", i+1, sc.method)
			continue
		}
		reportReplies(t, sc.method, sc.replies)
		s.scripts = append(s.scripts, newScript(sc.method, sc.replies))
		expect = expect || len(sc.replies) > 0
	}
	s.lis = newPipeListener()
	s.gs = grpc.NewServer(grpc.UnknownServiceHandler(s.serve), grpc.WaitForHandlers(true))
	go func() {
		id, _ := goheader.Current()
		s.serveID.Store(id)
		s.served <- s.gs.Serve(s.lis)
	}()
	t.Cleanup(s.Close)
	if expect {
		s.arm()
	}
	return s
}

// reportReplies reports the mistakes made in building the replies of
// method's script, and steps that follow an Always step.
func reportReplies(t fakeclock.FixtureT, method string, replies []Reply) {
	t.Helper()
	always := 0
	for i, r := range replies {
		for _, p := range r.problems {
			t.Errorf("grpcscript: NewServer: %s, reply %d (%s): %s", method, i+1, r, p)
		}
		if always > 0 {
			t.Errorf("grpcscript: NewServer: %s, reply %d (%s) follows reply %d, which is served always, so it can never be served",
				method, i+1, r, always)
		}
		if r.always && always == 0 {
			always = i + 1
		}
	}
}

// script is the script of method, or nil.
func (s *Server) script(method string) *script {
	for _, sc := range s.scripts {
		if sc.method == method {
			return sc
		}
	}
	return nil
}

// WithClock makes the server time attempts on c, such as a
// [github.com/retrykit/retrykit/fakeclock.Clock], and wait on it for
// [Reply.Latency]; it returns s. The schedule starts at c.Now() when
// WithClock is called, so give the clock before starting the code under
// test. Without WithClock the server uses the time package, which is the
// right choice inside a synctest bubble; outside one it then times nothing
// (see [Server.RetrySchedule]). A nil c is reported through t.Errorf and
// ignored.
//
// grpc-go itself runs on real time outside a bubble: its deadlines are
// real ones. It reads a context's deadline with time.Until
// (internal/transport/http2_client.go:636), so a deadline made on a fake
// clock, in the year 2000, has passed, and the attempt fails with
// DeadlineExceeded before it is sent. Test code that sets deadlines in a
// bubble.
func (s *Server) WithClock(c clockwork.Clock) *Server {
	s.t.Helper()
	if c == nil {
		s.t.Errorf("grpcscript: Server.WithClock: nil clock; leave WithClock out to use the time package")
		return s
	}
	now := c.Now()
	s.mu.Lock()
	s.clock, s.origin = c, now
	s.mu.Unlock()
	return s
}

// Target is the target a client dials, with [Server.DialOptions]:
// "passthrough:///grpcscript".
func (s *Server) Target() string { return target }

// DialOptions are the options a client needs to reach the server: its
// in-memory dialer and insecure transport credentials. Add the client's
// own (a service config, interceptors) after them.
func (s *Server) DialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithContextDialer(s.lis.dial),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}
}

// Dial makes a client connection to the server, as grpc.NewClient does,
// with [Server.DialOptions] and then opts, and closes it when the server
// closes, first.
func (s *Server) Dial(opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	cc, err := grpc.NewClient(target, append(s.DialOptions(), opts...)...)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.ccs = append(s.ccs, cc)
	}
	s.mu.Unlock()
	if closed {
		cc.Close()
		return nil, errListenerClosed
	}
	return cc, nil
}

// Close closes the client connections made by [Server.Dial], then stops
// the server, ending the attempts still waiting (a Hang, a Latency) with
// codes.Canceled on the server's side, and waits for its goroutines: a
// closed server leaves none behind. A client connection made otherwise
// must be closed by its maker, before the test ends. The test's cleanup
// calls Close; calling it again does nothing. The attempts stay readable.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	ccs, w, g := s.ccs, s.watch, s.guard
	s.mu.Unlock()
	if w != nil {
		w.Done()
	}
	if g != nil {
		g.Stop()
	}
	for _, cc := range ccs {
		cc.Close()
	}
	s.gs.Stop()
	<-s.served
}

// serve answers every attempt: grpc.UnknownServiceHandler routes every
// method here.
func (s *Server) serve(_ any, stream grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(stream)
	ctx := stream.Context()
	md, _ := metadata.FromIncomingContext(ctx)
	var left time.Duration
	if d, ok := ctx.Deadline(); ok {
		left = max(time.Until(d), time.Nanosecond)
	}
	a := s.arrive(method, md, left)
	if !a.ok {
		s.t.Errorf("%s", a.report)
	}
	// Read what the client sends before answering, as a generated handler
	// does: a server that answers a stream the client has not finished
	// resets it, and the client may then lose the reply (grpc-go returns
	// a bare io.EOF from the call).
	if err := drain(stream, a.clientStreams); err != nil {
		if a.ok {
			s.ended(a.rec.Index, "no request: "+err.Error())
		}
		return err
	}
	if !a.ok {
		return status.Errorf(codes.Unimplemented, "grpcscript: unexpected attempt %d (%s): %s", a.rec.Index, method, a.why)
	}
	r := a.reply
	if r.latency > 0 {
		if err := clockctx.Sleep(ctx, a.clock, r.latency); err != nil {
			err = ended(ctx)
			s.ended(a.rec.Index, "no reply: "+err.Error())
			return status.FromContextError(err).Err()
		}
	}
	if len(r.header) > 0 {
		if err := stream.SendHeader(r.header); err != nil {
			return err
		}
	}
	if r.hang {
		<-ctx.Done()
		err := ended(ctx)
		s.ended(a.rec.Index, "hung until: "+err.Error())
		return status.FromContextError(err).Err()
	}
	if len(r.trailer) > 0 {
		stream.SetTrailer(r.trailer)
	}
	if r.code == codes.OK {
		return stream.SendMsg(&emptypb.Empty{})
	}
	st := status.New(r.code, r.msg)
	if len(r.details) > 0 {
		var err error
		if st, err = st.WithDetails(v1(r.details)...); err != nil {
			return status.Errorf(codes.Internal, "grpcscript: the details of %s: %v", r, err)
		}
	}
	return st.Err()
}

// drain reads the request: one message, or for a client-streaming
// method every message until the client closes its side.
func drain(stream grpc.ServerStream, all bool) error {
	for {
		err := stream.RecvMsg(&emptypb.Empty{})
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		case !all:
			return nil
		}
	}
}

// ended is why the attempt's context ended: DeadlineExceeded once its
// deadline has passed, though the client's cancel, which it sends at its
// own deadline, may have reached the server first.
func ended(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return ctx.Err()
}

// arrived is what arrive found for an attempt.
type arrived struct {
	rec           Attempt
	reply         Reply
	clientStreams bool // the method takes a stream of requests
	ok            bool
	why, report   string
	clock         clockwork.Clock
}

// arrive records an attempt at method and picks its reply.
func (s *Server) arrive(method string, md metadata.MD, left time.Duration) arrived {
	s.mu.Lock()
	defer s.mu.Unlock()
	inside := goheader.InBubble()
	timed := s.clock != nil || !s.origin.IsZero() || inside
	if !timed {
		s.untimed = true
	}
	rec := Attempt{Index: len(s.attempts) + 1, At: s.now(), Method: method, Metadata: md.Copy(), Deadline: left, realDeadline: !inside}
	if rec.Metadata == nil {
		rec.Metadata = metadata.MD{}
	}
	a := arrived{clock: s.clock}
	if m, err := lookupMethod(method); err == nil {
		a.clientStreams = m.IsStreamingClient()
	}
	sc := s.script(method)
	if sc != nil {
		a.reply, rec.Step, a.ok = sc.next()
	}
	switch {
	case sc == nil:
		a.why = "no script for the method"
	case len(sc.steps) == 0:
		a.why = "its script has no replies: the method must not be called"
	case !a.ok:
		a.why = "no reply left in its script"
	}
	if a.ok {
		rec.Result = a.reply.answer()
		rec.hint = pushbackHint(a.reply)
	} else {
		rec.Result = "unexpected attempt"
		a.report = s.unexpectedLocked(rec, sc, a.why)
	}
	s.attempts = append(s.attempts, rec)
	a.rec = rec
	if rec.Index == 1 && s.watch != nil {
		s.watch.Done()
	}
	return a
}

// ended records how attempt n ended when its reply never came.
func (s *Server) ended(n int, result string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts[n-1].Result = result
	s.attempts[n-1].hint = ""
}

// unexpectedLocked describes an attempt the script sc (nil for none) has
// no reply for: what arrived, why, the scripts and the attempts so far.
func (s *Server) unexpectedLocked(rec Attempt, sc *script, why string) string {
	var b strings.Builder
	at := ""
	if !s.untimed {
		at = " at +" + schedfmt.Duration(rec.At.Sub(s.startLocked(rec.At)))
	}
	fmt.Fprintf(&b, "grpcscript: unexpected attempt %d%s: %s: %s\n", rec.Index, at, rec.Method, why)
	if sc != nil {
		b.WriteString("script of " + sc.method + ":\n")
		b.WriteString(sc.table("  ", false))
	} else {
		b.WriteString(s.scriptsLocked())
	}
	all := append(s.attempts[:len(s.attempts):len(s.attempts)], rec)
	fmt.Fprintf(&b, "attempts (%d):\n", len(all))
	b.WriteString(s.attemptsTable(all, s.startLocked(rec.At), "  "))
	return strings.TrimSuffix(b.String(), "\n")
}

// scriptsLocked lists the scripts, each with its table, or says there are
// none.
func (s *Server) scriptsLocked() string {
	if len(s.scripts) == 0 {
		return "scripts: none\n"
	}
	var b strings.Builder
	for _, sc := range s.scripts {
		b.WriteString("script of " + sc.method + ":\n")
		b.WriteString(sc.table("  ", false))
	}
	return b.String()
}

// startLocked is when the schedule starts: its origin, or else the first
// attempt's time, which is first when there is none yet.
func (s *Server) startLocked(first time.Time) time.Time {
	switch {
	case !s.origin.IsZero():
		return s.origin
	case len(s.attempts) > 0:
		return s.attempts[0].At
	}
	return first
}

// attemptsTable renders attempts, with offsets from start when timed.
func (s *Server) attemptsTable(attempts []Attempt, start time.Time, indent string) string {
	tab := schedfmt.Grid{Header: []string{"attempt", "at", "method", "retry metadata", "deadline", "result"}, Indent: indent}
	for _, a := range attempts {
		at := "-"
		if !s.untimed {
			at = "+" + schedfmt.Duration(a.At.Sub(start))
		}
		tab.Rows = append(tab.Rows, schedfmt.GridRow{Cells: []string{fmt.Sprint(a.Index), at, a.Method, a.retryCell(), a.deadlineCell(), schedfmt.Cell(a.result(), 90)}})
	}
	return tab.String()
}

func (s *Server) now() time.Time {
	if s.clock != nil {
		return s.clock.Now()
	}
	return time.Now()
}

// Attempts returns every attempt the server received, in the order they
// arrived. The slice and the attempts are copies.
func (s *Server) Attempts() []Attempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.attempts)
	for i := range out {
		out[i].Metadata = out[i].Metadata.Copy()
	}
	return out
}

// RetrySchedule reports the attempts received for the checks (see
// retrytest.Schedule): when each arrived, as an offset from the start of the
// server's schedule, and its result, followed by the wait its pushback
// asked for, if any: `Unavailable, trailer grpc-retry-pushback-ms: 2000
// (asks to wait 2s)`.
//
// The schedule starts when [Server.WithClock] was called, or else when the
// server was made inside a testing/synctest bubble, so a wait before the
// first attempt shows. A server made outside a bubble without a clock
// times nothing: it keeps the order of its attempts, and the checks of
// times fail, asking for a clock; the count is checked as usual.
func (s *Server) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	attempts, results = schedcheck.Offsets(s.origin, len(s.attempts), func(i int) (time.Time, string) { return s.attempts[i].At, s.attempts[i].result() })
	if s.untimed {
		clear(attempts)
		untimed = "the grpcscript.Server received attempts outside a testing/synctest bubble and has no clock, " +
			"so it knows their order but not their times: make it inside the bubble, or give it a clock with WithClock"
	}
	return attempts, results, nil, untimed
}

// WaitingElsewhere asks the server's clock, when it is a fake clock that
// can tell, which goroutines of the code under test wait on something
// other than it (see fakeclock's Clock.WaitingElsewhere); a failed check
// prints them under its table. It returns nil otherwise.
func (s *Server) WaitingElsewhere() []string {
	s.mu.Lock()
	c, ok := s.clock.(interface{ WaitingElsewhere() []string })
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return c.WaitingElsewhere()
}

// String describes the server for a failure message: the attempts it
// received and its scripts, with how often each reply was served.
func (s *Server) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "grpcscript.Server: %s\n", schedfmt.Count(len(s.attempts), "attempt"))
	if len(s.attempts) > 0 {
		b.WriteString(s.attemptsTable(s.attempts, s.startLocked(s.attempts[0].At), "  "))
	}
	b.WriteString(s.scriptsLocked())
	return strings.TrimSuffix(b.String(), "\n")
}

// GomegaString returns the same text as String, so that a Gomega failure
// about a *Server prints its attempts rather than its fields.
func (s *Server) GomegaString() string { return s.String() }
