package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/seqrand"
)

// breakerRun is what a run of the breaker suite adds to its config: the
// Spec with its defaults, and the code under test.
type breakerRun struct {
	spec      breakerSpec
	newGuard  func(Seams) Guard
	newClient func(Seams) Do
}

// bkind is what the server does with a request.
type bkind int

const (
	bOK      bkind = iota // 200
	bStatus               // the status of the answer
	bReset                // a connection reset
	bTimeout              // an I/O timeout
	bHang                 // no answer until the request's context ends
)

// banswer is how the server answers every request of one call (or, with
// next, its first request, the rest answered as next says).
type banswer struct {
	kind   bkind
	status int
}

var (
	bSuccess = banswer{kind: bOK}
	bHangs   = banswer{kind: bHang}
)

// failing is the answer of a call that fails, as the Spec counts a
// failure: a status it counts, or a connection reset when it counts none.
func (b *breakerRun) failing() banswer {
	if len(b.spec.FailureStatuses) == 0 {
		return banswer{kind: bReset}
	}
	return banswer{kind: bStatus, status: b.spec.failStatus()}
}

// reply is a's reply, served for every request of the call.
func (a banswer) reply() httpscript.Reply {
	switch a.kind {
	case bStatus:
		return httpscript.Respond(a.status)
	case bReset:
		return httpscript.ConnReset()
	case bTimeout:
		return httpscript.IOTimeout()
	case bHang:
		return httpscript.Respond(200).Latency(100 * 365 * 24 * time.Hour)
	}
	return httpscript.Respond(200)
}

// String names a as the table shows it: "200", "503", "reset".
func (a banswer) String() string {
	switch a.kind {
	case bStatus:
		return strconv.Itoa(a.status)
	case bReset:
		return "reset"
	case bTimeout:
		return "timeout"
	case bHang:
		return "no answer"
	}
	return "200"
}

// btrial is the code under test built once with its seams — a fake clock
// (nil in a bubble), the top of the random source, for a client the
// suite's transport — and called many times: the breaker keeps its state
// from call to call. Every call has a scripted transport of its own, so
// that its requests are counted apart.
type btrial struct {
	t     tb
	c     *config
	b     *breakerRun
	clk   *fakeclock.Clock
	start time.Time
	guard Guard
	do    Do

	mu    sync.Mutex
	calls []*bcall
}

// bcall is one call of the code under test.
type bcall struct {
	tr     *btrial
	n      int
	answer []banswer // the answers of its requests, the last repeating
	tp     *httpscript.Transport
	at     time.Duration // when it began, from the trial's start
	rc     *recorder.Call
	cancel context.CancelFunc
	want   string // what the property expects of it, for the table
}

// newBreakerTrial builds the code under test.
func (c *config) newBreakerTrial(t tb) *btrial {
	t.Helper()
	tr := &btrial{t: t, c: c, b: c.brk}
	if !c.bubble {
		tr.clk = fakeclock.New(t, fakeclock.WithoutLeakCheck())
		tr.start = tr.clk.Now()
	} else {
		tr.start = time.Now()
	}
	s := Seams{Rand: seqrand.Max(), Sleep: func(ctx context.Context, d time.Duration) error { return clockctx.Sleep(ctx, nil, d) }}
	if tr.clk != nil {
		s.Clock, s.Sleep = tr.clk, tr.clk.SleepContext
	}
	switch c.shape {
	case "breaker":
		if tr.guard = tr.b.newGuard(s); tr.guard == nil {
			t.Fatalf("conformance: the breaker adapter returned a nil Guard")
		}
	case "breaker client":
		s.Transport = tr
		if tr.do = tr.b.newClient(s); tr.do == nil {
			t.Fatalf("conformance: the client adapter returned a nil Do")
		}
	}
	return tr
}

// clock is the clock calls are timed on: nil (the time package) in a
// bubble.
func (tr *btrial) clock() clockwork.Clock {
	if tr.clk == nil {
		return nil
	}
	return tr.clk
}

// now is how long the trial has run.
func (tr *btrial) now() time.Duration {
	if tr.clk == nil {
		return time.Since(tr.start)
	}
	return tr.clk.Now().Sub(tr.start)
}

// advanceTo moves the trial's time to at, firing every timer due on the
// way at its own instant, and lets the code settle; at in the past only
// settles.
func (tr *btrial) advanceTo(at time.Duration) {
	tr.t.Helper()
	d := max(at-tr.now(), 0)
	if tr.clk == nil {
		sleepAndWait(d)
		return
	}
	tr.clk.Step(d)
}

// settle lets the code run until it waits again.
func (tr *btrial) settle() { tr.advanceTo(0) }

// RoundTrip is the suite's transport: it hands each request to the
// transport of the call it belongs to.
func (tr *btrial) RoundTrip(r *http.Request) (*http.Response, error) {
	n, _ := strconv.Atoi(r.Header.Get(callHeader))
	if n == 0 {
		if v, ok := r.Context().Value(callKey{}).(int); ok {
			n = v
			r = r.Clone(r.Context())
			r.Header.Set(callHeader, strconv.Itoa(n))
		}
	}
	tr.mu.Lock()
	var cl *bcall
	if n >= 1 && n <= len(tr.calls) {
		cl = tr.calls[n-1]
	}
	tr.mu.Unlock()
	if cl == nil {
		tr.t.Errorf("conformance: the client sent a request with neither the %s header nor the context of the request the suite passed to Do, so its calls cannot be told apart; build each attempt from that request (req.Clone keeps both) or at least from its context", callHeader)
		return nil, errors.New("conformance: a request of no call")
	}
	return cl.tp.RoundTrip(r)
}

// begin starts a call whose requests the server answers with answers, the
// last repeating; want is what the property expects of it.
func (tr *btrial) begin(want string, answers ...banswer) *bcall {
	t := tr.t
	t.Helper()
	replies := make([]httpscript.Reply, len(answers))
	for i, a := range answers {
		replies[i] = a.reply()
	}
	replies[len(replies)-1] = replies[len(replies)-1].Always()
	tp := httpscript.NewTransport(t, replies...)
	if tr.clk != nil {
		tp.WithClock(tr.clk)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tr.mu.Lock()
	cl := &bcall{tr: tr, n: len(tr.calls) + 1, answer: answers, tp: tp, cancel: cancel, want: want}
	tr.calls = append(tr.calls, cl)
	tr.mu.Unlock()
	cl.at = tr.now()
	switch tr.c.shape {
	case "breaker":
		op := tr.op(cl.n)
		cl.rc = recorder.Start(tr.clock(), func() error { return tr.guard(ctx, op) })
	case "breaker client":
		cl.rc = recorder.Start(tr.clock(), func() error { return send(ctx, tr.do, cl.n) })
	}
	t.Cleanup(cl.end)
	return cl
}

// call makes a call and lets it run to its end: at once, or after the
// loop's every wait.
func (tr *btrial) call(want string, answers ...banswer) *bcall {
	tr.t.Helper()
	cl := tr.begin(want, answers...)
	cl.finish()
	return cl
}

// op is the operation of call n that a Guard runs: one request through
// the suite's transport. It returns nil for a success, the transport's
// error for a connection error or a canceled request, the Spec's
// IgnoredErr for a status it ignores, and an error for any other status.
func (tr *btrial) op(n int) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/items", strings.NewReader(`{"item":1}`))
		if err != nil {
			return err
		}
		req.Header.Set(callHeader, strconv.Itoa(n))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode < 300:
			return nil
		case tr.b.spec.IgnoredErr != nil && slices.Contains(tr.b.spec.IgnoredStatuses, resp.StatusCode):
			return tr.b.spec.IgnoredErr
		}
		return fmt.Errorf("conformance: the operation failed: %s", resp.Status)
	}
}

// finish lets cl run to its end: a refused call returns at once, a call
// with a loop after the loop's waits; it moves the trial's time at most by
// the longest the loop waits.
func (cl *bcall) finish() {
	tr := cl.tr
	tr.t.Helper()
	tr.settle()
	if cl.rc.Returned() {
		return
	}
	tr.advanceTo(satdur.Add(cl.at, tr.b.spec.loopMax()))
}

// finishAfter lets cl make n requests, then cancels it while its loop
// waits for the next attempt, so that a loop outside the breaker makes n
// attempts of its call and no more; the cancel lands between two
// attempts, where the breaker counts nothing.
func (cl *bcall) finishAfter(n int) {
	tr := cl.tr
	tr.t.Helper()
	tr.settle()
	for k := 1; ; k++ {
		if len(cl.requests()) >= n || cl.rc.Returned() || k >= tr.b.spec.attempts() {
			break
		}
		tr.advanceTo(satdur.Add(tr.now(), tr.b.spec.Loop.Policy.Window(k).Max))
	}
	cl.cancel()
	tr.settle()
}

// end cancels the call and lets it return, before the clock's own cleanup.
func (cl *bcall) end() {
	cl.cancel()
	cl.tr.settle()
	if !cl.rc.Returned() {
		cl.tr.advanceTo(satdur.Add(cl.tr.now(), satdur.Add(cl.tr.b.spec.loopMax(), 1)))
	}
}

// requests returns the requests the call made.
func (cl *bcall) requests() []httpscript.Request { return cl.tp.Requests() }

// reached reports whether a request of the call reached the transport.
func (cl *bcall) reached() bool { return len(cl.requests()) > 0 }

// lastRequest is when the last request of the trial arrived, from its
// start, and whether there was one.
func (tr *btrial) lastRequest() (time.Duration, bool) {
	tr.mu.Lock()
	calls := slices.Clone(tr.calls)
	tr.mu.Unlock()
	var last time.Time
	for _, cl := range calls {
		for _, r := range cl.requests() {
			if r.At.After(last) {
				last = r.At
			}
		}
	}
	if last.IsZero() {
		return 0, false
	}
	return last.Sub(tr.start), true
}

// returned describes how the call stands: "0s: <nil>", "running".
func (cl *bcall) returned() string {
	done, at, err := cl.rc.State()
	if !done {
		return "running"
	}
	return fmt.Sprintf("%s: %v", schedfmt.Duration(at), errOrNil(err))
}

func errOrNil(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// table prints the trial's calls, the one numbered mark marked with why.
func (tr *btrial) table(mark int, why string) string {
	tr.mu.Lock()
	calls := slices.Clone(tr.calls)
	tr.mu.Unlock()
	g := schedfmt.Grid{Header: []string{"call", "at", "answer", "want", "requests", "returned"}, Indent: "  "}
	for _, cl := range calls {
		names := make([]string, len(cl.answer))
		for i, a := range cl.answer {
			names[i] = a.String()
		}
		reqs := strconv.Itoa(len(cl.requests()))
		if rs := cl.requests(); len(rs) > 0 && (len(rs) > 1 || rs[0].At.Sub(tr.start) != cl.at) {
			ats := make([]string, len(rs))
			for i, r := range rs {
				ats[i] = schedfmt.Duration(r.At.Sub(tr.start))
			}
			reqs += " at " + strings.Join(ats, " ")
		}
		g.Rows = append(g.Rows, schedfmt.GridRow{
			Cells:  []string{strconv.Itoa(cl.n), schedfmt.Duration(cl.at), strings.Join(names, " "), cl.want, reqs, cl.returned()},
			Marked: cl.n == mark,
			Reason: why,
		})
	}
	return strings.TrimSuffix(g.String(), "\n")
}

// fail reports, through t, what cl did wrong, with the trial's table.
func (cl *bcall) fail(format string, args ...any) {
	tr := cl.tr
	tr.t.Helper()
	msg := fmt.Sprintf(format, args...)
	why := msg
	if i := strings.Index(why, ": "); i > 0 {
		why = why[:i]
	}
	tr.t.Errorf("%s\n%s", msg, tr.table(cl.n, why))
}
