package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// errTransient is what the suite's operation returns for a failed attempt
// that should be retried.
var errTransient = errors.New("conformance: transient failure")

// answer is how the suite ends one attempt.
type answer struct {
	status int         // a client's status; 0 for the kinds below
	header http.Header // with Retry-After
	err    string      // "reset" or "timeout" for a client
	perm   bool        // Spec.PermanentErr (loop) or its status (client)
	ok     bool        // success
}

var (
	transient = answer{}
	success   = answer{ok: true}
)

// transientStatus is the status a client's transient failure gets: a
// retryable one whose Retry-After the code does not read, if there is one.
func (c *config) transientStatus() int {
	prefer := []int{503, 500, 502, 504, 429}
	for _, s := range prefer {
		if slices.Contains(c.spec.Retryable, s) && (c.spec.RetryAfter == nil || !slices.Contains(c.spec.ra.Statuses, s)) {
			return s
		}
	}
	for _, s := range prefer {
		if slices.Contains(c.spec.Retryable, s) {
			return s
		}
	}
	return c.spec.Retryable[0]
}

// horizon bounds how far the suite advances time to let a call finish:
// every wait of the Policy at its widest, the longest hint, and an hour
// more; without an attempt limit, twice the Budget and twice the widest
// wait past it.
func (c *config) horizon() time.Duration {
	var h time.Duration
	if n := c.spec.retries(); n >= 0 {
		h = time.Hour
		for k := 1; k <= n; k++ {
			h = satdur.Add(h, c.spec.Policy.Window(k).Max)
		}
	} else {
		h = satdur.Add(c.spec.Budget, c.spec.Policy.Window(64).Max)
		h = satdur.Add(h, h)
	}
	if c.spec.RetryAfter != nil {
		h = satdur.Add(h, c.spec.ra.Max)
	}
	return h
}

// limit is how many attempts of one call the suite answers before it
// stops answering, so that a loop that never stops parks instead of
// spinning: a few more than the Policy allows.
func (c *config) limit() int {
	if n := c.spec.Policy.Attempts; n > 0 {
		return n + 5
	}
	return 1000
}

// trial is the code under test, built once with its seams — one fake
// clock (nil in a bubble), one random source, and for a client one scripted
// transport — and called one or more times.
type trial struct {
	t    tb
	c    *config
	clk  *fakeclock.Clock
	loop Loop
	do   Do
	tr   *retrytest.Transport
	n    int // calls begun

	mu sync.Mutex // guards n
}

// newTrial builds the code under test at src. For a client, script is the
// transport's script for every call the trial will make, calls of them.
func (c *config) newTrial(t tb, src *seqrand.Source, script []answer, calls int) *trial {
	t.Helper()
	tr := &trial{t: t, c: c}
	if !c.bubble {
		// NoLeaks checks for timers left behind; every other property
		// leaves them to it, so that one bug fails one property.
		tr.clk = fakeclock.New(t, fakeclock.WithoutLeakCheck())
	}
	s := Seams{Rand: rand.New(src), Source: src, Sleep: func(ctx context.Context, d time.Duration) error { return clockctx.Sleep(ctx, nil, d) }}
	if tr.clk != nil {
		s.Clock, s.Sleep = tr.clk, tr.clk.SleepContext
	}
	switch c.shape {
	case "loop":
		if tr.loop = c.newLoop(s); tr.loop == nil {
			t.Fatalf("conformance: the loop adapter returned a nil Loop")
		}
	case "client":
		tr.tr = retrytest.NewTransport(t, c.replies(script, calls*c.limit())...)
		if tr.clk != nil {
			tr.tr.WithClock(tr.clk)
		}
		s.Transport = tagger{tr.tr}
		if tr.do = c.newClient(s); tr.do == nil {
			t.Fatalf("conformance: the client adapter returned a nil Do")
		}
	}
	return tr
}

// replies turns a script into a Transport's replies: n answers, the last
// one repeating, then a reply that never comes.
func (c *config) replies(script []answer, n int) []retrytest.Reply {
	var out []retrytest.Reply
	for i, a := range script {
		var r retrytest.Reply
		switch {
		case a.ok:
			r = retrytest.Respond(200)
		case a.err == "reset":
			r = retrytest.ConnReset()
		case a.err == "timeout":
			r = retrytest.IOTimeout()
		case a.status != 0:
			r = retrytest.Respond(a.status)
		default:
			r = retrytest.Respond(c.transientStatus())
		}
		for k, vs := range a.header {
			for _, v := range vs {
				r = r.Header(k, v)
			}
		}
		if i == len(script)-1 && n > len(script) {
			r = r.Times(n - i)
		}
		out = append(out, r)
	}
	return append(out, retrytest.Respond(c.transientStatus()).Latency(100*365*24*time.Hour).Always())
}

// clock is the clock a call is timed on: nil (the time package) in a
// bubble.
func (tr *trial) clock() clockwork.Clock {
	if tr.clk == nil {
		return nil
	}
	return tr.clk
}

// call is one call of the code under test.
type call struct {
	tr     *trial
	n      int                  // its number, from 1
	start  time.Time            // on the trial's clock
	sw     *retrytest.Stopwatch // a loop's attempts
	rc     *retrytest.Call
	cancel context.CancelFunc
}

// begin starts a call. A loop's attempts are answered from script, its
// last answer repeating; a client's from the transport's script. mkCtx may
// put a deadline on the call's context.
func (tr *trial) begin(script []answer, mkCtx func(ctx context.Context, clk *fakeclock.Clock) (context.Context, context.CancelFunc)) *call {
	t := tr.t
	t.Helper()
	tr.mu.Lock()
	tr.n++
	cl := &call{tr: tr, n: tr.n}
	tr.mu.Unlock()
	base, cancel := context.WithCancel(context.Background())
	cl.cancel = cancel
	ctx := base
	if mkCtx != nil {
		var cancelDeadline context.CancelFunc
		ctx, cancelDeadline = mkCtx(base, tr.clk)
		t.Cleanup(cancelDeadline)
	}
	cl.start = now(tr.clk)
	switch tr.c.shape {
	case "loop":
		cl.sw = retrytest.NewStopwatch()
		if tr.clk != nil {
			cl.sw.WithClock(tr.clk)
		}
		op := tr.op(cl.sw, script, base)
		cl.rc = retrytest.Start(tr.clock(), func() error { return tr.loop(ctx, op) })
	case "client":
		cl.rc = retrytest.Start(tr.clock(), func() error { return send(ctx, tr.do, cl.n) })
	}
	t.Cleanup(cl.end)
	return cl
}

func now(clk *fakeclock.Clock) time.Time {
	if clk == nil {
		return time.Now()
	}
	return clk.Now()
}

// op is the operation a loop retries: it answers each attempt from
// script, and, past the limit, waits until the call ends.
func (tr *trial) op(sw *retrytest.Stopwatch, script []answer, base context.Context) func(context.Context) error {
	var n atomic.Int64
	return func(ctx context.Context) error {
		i := int(n.Add(1)) - 1
		sw.Attempt()
		if i >= tr.c.limit() {
			var err error
			select {
			case <-ctx.Done():
				err = ctx.Err()
			case <-base.Done():
				err = base.Err()
			}
			sw.AttemptResult(err)
			return err
		}
		a := script[min(i, len(script)-1)]
		var err error
		switch {
		case a.ok:
		case a.perm:
			err = tr.c.spec.PermanentErr
		default:
			err = errTransient
		}
		sw.AttemptResult(err)
		return err
	}
}

// callHeader numbers the calls of one client, so that their requests can
// be told apart.
const callHeader = "X-Conformance-Call"

// callKey carries a call's number in its request's context, for a client
// that builds requests of its own instead of sending the one it was given.
type callKey struct{}

// tagger numbers a request that lost the call's header from its context.
type tagger struct{ rt http.RoundTripper }

func (tg tagger) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get(callHeader) == "" {
		if n, ok := r.Context().Value(callKey{}).(int); ok {
			r = r.Clone(r.Context())
			r.Header.Set(callHeader, strconv.Itoa(n))
		}
	}
	return tg.rt.RoundTrip(r)
}

// send makes one call of a client: a POST with a body, numbered n in its
// header and its context.
func send(ctx context.Context, do Do, n int) error {
	ctx = context.WithValue(ctx, callKey{}, n)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/items", strings.NewReader(`{"item":1}`))
	if err != nil {
		return err
	}
	req.Header.Set(callHeader, strconv.Itoa(n))
	resp, err := do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return fmt.Errorf("conformance: the client returned %s", resp.Status)
	}
	return nil
}

// step advances the trial's clock by d and lets the code settle.
func (tr *trial) step(d time.Duration) {
	tr.t.Helper()
	if tr.clk == nil {
		retrytest.Step(d)
		return
	}
	tr.clk.Step(d)
}

// finish advances time until cl returns, or until every wait the Spec
// allows, and more, has passed.
func (cl *call) finish() {
	tr := cl.tr
	tr.t.Helper()
	if tr.clk == nil {
		retrytest.Step(tr.c.horizon())
		return
	}
	tr.clk.Step(0)
	tr.mu.Lock()
	calls := tr.n // the waits of every call begun may come first
	tr.mu.Unlock()
	for range (tr.c.limit() + 5) * calls {
		if cl.rc.Returned() {
			return
		}
		next, ok := tr.clk.NextDeadline()
		if !ok || next.Sub(cl.start) > tr.c.horizon() {
			return
		}
		tr.clk.Step(next.Sub(tr.clk.Now()))
	}
}

// end cancels the call and lets it return, before the clock's own cleanup
// checks for leaks. A call that does not return when canceled is driven to
// its end, so that the property that fails for it is CancelDuringWait (or
// NoLeaks), not whichever property made the call.
func (cl *call) end() {
	cl.cancel()
	if cl.tr.clk == nil {
		// A goroutine of the bubble still asleep when the property ends
		// would make synctest.Test panic: "deadlock".
		retrytest.Step(0)
		if !cl.rc.Returned() {
			cl.finish()
		}
		return
	}
	cl.tr.clk.AdvanceAndDrain(context.Background(), 0)
	cl.finish()
}

// schedule is the call's attempts as the checks read them.
func (cl *call) schedule() retrytest.Schedule {
	if cl.sw != nil {
		return cl.sw
	}
	return clientCall{cl}
}

// clientCall is the schedule of one call of a client: the requests that
// carried its number, timed from its start.
type clientCall struct{ cl *call }

func (cc clientCall) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	attempts, results = []time.Duration{}, []string{}
	n := strconv.Itoa(cc.cl.n)
	for _, r := range cc.cl.tr.tr.Requests() {
		if r.Header.Get(callHeader) == n {
			attempts = append(attempts, r.At.Sub(cc.cl.start))
			results = append(results, r.Result)
		}
	}
	return attempts, results, nil, ""
}

// attempts returns when each attempt of the call began.
func (cl *call) attempts() []time.Duration {
	at, _, _, _ := cl.schedule().RetrySchedule()
	if len(at) == 0 && cl.tr.tr != nil {
		for _, r := range cl.tr.tr.Requests() {
			if r.Header.Get(callHeader) == "" {
				cl.tr.t.Fatalf("conformance: the client sent a request with neither the %s header nor the context of the request the suite passed to Do, so its calls cannot be told apart; build each attempt from that request (req.Clone keeps both) or at least from its context", callHeader)
			}
		}
	}
	return at
}

// delays returns the waits between the call's attempts.
func (cl *call) delays() []time.Duration {
	at := cl.attempts()
	var ds []time.Duration
	for i := 1; i < len(at); i++ {
		ds = append(ds, at[i]-at[i-1])
	}
	return ds
}

// baseline is a call made alone at the Max source, every attempt failing
// transiently: the code's own waits, which the properties that are not
// about the backoff compare against, so that a bug in the backoff fails
// WaitsInWindows and not every property that waits.
func (c *config) baseline(t tb) *call {
	t.Helper()
	return c.alwaysFailing(t, seqrand.Max())
}

// firstWait is the code's wait after one transient failure at the Max
// source, and whether it retried at all.
func (c *config) firstWait(t tb) (time.Duration, bool) {
	t.Helper()
	if c.shape == "policy" {
		d := c.decideAt(t, 0, c.transientOutcome(), seqrand.Max())
		return d.Delay, d.Retry
	}
	cl := c.run(t, seqrand.Max(), []answer{transient, success})
	if at := cl.attempts(); len(at) >= 2 {
		return at[1] - at[0], true
	}
	return 0, false
}

// midFirstWait is the middle of the code's first wait at the Max source,
// from the call's start, and its length; 0 when it made none.
func (c *config) midFirstWait(t tb) (mid, wait time.Duration) {
	t.Helper()
	cl := c.run(t, seqrand.Max(), []answer{transient, success})
	at := cl.attempts()
	if len(at) < 2 {
		return 0, 0
	}
	wait = at[1] - at[0]
	return at[0] + wait/2, wait
}

// table is the call's schedule as a table, for a failure's text.
func (cl *call) table() string {
	at, results, _, _ := cl.schedule().RetrySchedule()
	rows := make([]schedfmt.Row, len(at))
	var prev time.Duration
	for i, a := range at {
		rows[i] = schedfmt.AttemptRow(i+1, a-prev, a, results[i])
		prev = a
	}
	r := schedfmt.Row{Attempt: "return", At: schedfmt.Duration(cl.rc.At()), Result: errText(cl.rc)}
	if !cl.rc.Returned() {
		r.Attempt, r.Result = "running", "(not returned)"
	}
	rows = append(rows, r)
	return strings.TrimSuffix(schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String(), "\n")
}

func errText(rc *retrytest.Call) string {
	if err := rc.Err(); err != nil {
		return err.Error()
	}
	return "<nil>"
}

// notReturned reports, through t, a call that has not returned after the
// suite let every wait it allows pass.
func (cl *call) notReturned() bool {
	t := cl.tr.t
	t.Helper()
	if cl.rc.Returned() {
		return false
	}
	t.Errorf("the call has not returned %s after it began, after %s: it keeps waiting past every wait the Spec allows\n%s",
		schedfmt.Duration(cl.rc.At()), schedfmt.Count(len(cl.attempts()), "attempt"), cl.table())
	return true
}

// skipUnreturned skips the property when cl, a call that always fails,
// has not returned: the code never gives up, which AttemptCount (or, with
// no attempt limit, BudgetHonoured) reports, and a property about what
// happens once it does has nothing to check.
func (cl *call) skipUnreturned() {
	t := cl.tr.t
	t.Helper()
	if cl.rc.Returned() {
		return
	}
	by := "AttemptCount"
	if cl.tr.c.spec.Policy.Attempts == 0 {
		by = "BudgetHonoured"
	}
	t.Skip(fmt.Sprintf("a call that always fails has not returned %s after it began (%s reports it)", schedfmt.Duration(cl.rc.At()), by))
}

// run builds the code at src and makes one call answered from script,
// to its end.
func (c *config) run(t tb, src *seqrand.Source, script []answer) *call {
	t.Helper()
	cl := c.newTrial(t, src, script, 1).begin(script, nil)
	cl.finish()
	return cl
}
