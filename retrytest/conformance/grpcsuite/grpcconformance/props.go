package grpcconformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing/synctest"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/internal/settle"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
	"github.com/retrykit/retrykit/seqrand"
)

// property is one clause of the contract.
type property struct {
	name string
	// skip says why the Spec cannot express the property; "" when it runs.
	skip func(s Spec) string
	run  func(t *verdict.Recorder, c *config)
}

// properties are the suite's, in the order they run. A property's name,
// and its cases', are part of the API.
var properties = []property{
	{name: "FirstAttemptImmediate", run: firstAttemptImmediate},
	{name: "WaitsInWindows", skip: needsRetry, run: waitsInWindows},
	{name: "AttemptCount", run: attemptCount},
	{name: "RetryableCodes", skip: needsRetry, run: retryableCodes},
	{name: "NonRetryableCodes", run: nonRetryableCodes},
	{name: "PushbackWaited", skip: needsPushback, run: pushbackWaited},
	{name: "PushbackResetsBackoff", skip: needsResetLadder, run: pushbackResetsBackoff},
	{name: "PushbackInvalid", skip: needsPushback, run: pushbackInvalid},
	{name: "RetryThrottling", skip: needsThrottle, run: retryThrottling},
	{name: "AttemptTimeout", skip: needsAttemptTimeout, run: attemptTimeout},
	{name: "RetryMetadata", skip: needsAttemptKey, run: retryMetadata},
	{name: "DeadlineSpansAttempts", skip: needsRetry, run: deadlineSpansAttempts},
	{name: "DeadlineCutsWait", skip: needsFirstWait, run: deadlineCutsWait},
	{name: "CancelDuringWait", skip: needsFirstWait, run: cancelDuringWait},
	{name: "NoLeaks", run: noLeaks},
}

func needsRetry(s Spec) string {
	if s.Policy.Attempts < 2 {
		return "the Spec declares no retry (Policy.Attempts 1)"
	}
	return ""
}

func needsPushback(s Spec) string {
	if why := needsRetry(s); why != "" {
		return why
	}
	if s.Pushback == nil {
		return "the Spec declares that the client reads no pushback (Pushback nil)"
	}
	return ""
}

func needsResetLadder(s Spec) string {
	if why := needsPushback(s); why != "" {
		return why
	}
	p := s.Policy
	if p.Attempts < 5 {
		return fmt.Sprintf("the suite needs 5 attempts to see the backoff restart after a pushback (two waits, the pushback, one more), and Policy.Attempts is %d", p.Attempts)
	}
	w1, w3 := p.Window(1), p.Window(3)
	if w1.Max+p.Tolerance >= w3.Min-p.Tolerance {
		return fmt.Sprintf("the first wait's window %s meets the third's %s: a restarted backoff and a continued one cannot be told apart",
			schedfmt.Window(w1.Min, w1.Max), schedfmt.Window(w3.Min, w3.Max))
	}
	return ""
}

func needsThrottle(s Spec) string {
	if why := needsRetry(s); why != "" {
		return why
	}
	if s.Throttle == nil {
		return "the Spec declares no retry throttle (Throttle nil)"
	}
	return ""
}

func needsAttemptTimeout(s Spec) string {
	if why := needsRetry(s); why != "" {
		return why
	}
	if s.AttemptTimeout == 0 {
		return "the Spec declares no per-attempt timeout (AttemptTimeout 0)"
	}
	return ""
}

func needsAttemptKey(s Spec) string {
	if why := needsRetry(s); why != "" {
		return why
	}
	if s.AttemptKey == "" {
		return "the Spec declares no metadata numbering the retries (AttemptKey \"\")"
	}
	return ""
}

func needsFirstWait(s Spec) string {
	if why := needsRetry(s); why != "" {
		return why
	}
	if s.Policy.Window(1).Min < 2 {
		return fmt.Sprintf("the first wait may be 0s (%s): there is no wait that surely outlasts a deadline or a cancel in it", s.Policy)
	}
	return ""
}

// transient is the reply of a failed attempt: the first Retryable code.
func (c *config) transient() grpcscript.Reply {
	return grpcscript.Status(c.spec.transient(), "transient")
}

func firstAttemptImmediate(t *verdict.Recorder, c *config) {
	o := c.once(t, context.Background(), grpcscript.OK())
	switch {
	case len(o.att) == 0:
		t.Fatalf("no attempt reached the server; the call returned %s", errCell(o.err))
	case o.att[0].At != o.start:
		t.Errorf("the first attempt came %s after the call began, want at once\n%s", schedfmt.Duration(o.att[0].At.Sub(o.start)),
			o.table(func(int) string { return "at once" }, 1, "late"))
	}
}

// judgeLadder fails t at the first wait of o out of its window; edge, if
// not nil, narrows each window to the part that counts.
func (c *config) judgeLadder(t *verdict.Recorder, o outcome, what string, edge func(w retrytest.Window) retrytest.Window) bool {
	p := c.spec.Policy
	for k, w := range o.waits() {
		win := p.Window(k + 1)
		if edge != nil {
			win = edge(win)
		}
		if !in(w, win) {
			t.Errorf("wait %d is %s, want %s %s (%s)\n%s", k+1, schedfmt.Duration(w), what, schedfmt.Window(win.Min, win.Max), p,
				o.table(func(i int) string {
					if i == 1 {
						return "at once"
					}
					x := p.Window(i - 1)
					if edge != nil {
						x = edge(x)
					}
					return "in " + schedfmt.Window(x.Min, x.Max)
				}, k+2, "out of its window"))
			return false
		}
	}
	return true
}

func waitsInWindows(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	if !c.spec.OwnRandom {
		for _, e := range []struct {
			name string
			src  func() *seqrand.Source
			edge func(w retrytest.Window) retrytest.Window
		}{
			{"min", seqrand.Min, func(w retrytest.Window) retrytest.Window {
				return retrytest.Window{Min: w.Min, Max: w.Min + (w.Max-w.Min)/1000}
			}},
			{"max", seqrand.Max, func(w retrytest.Window) retrytest.Window {
				return retrytest.Window{Min: w.Max - (w.Max-w.Min)/1000, Max: w.Max}
			}},
		} {
			t.Run(e.name, func(t *verdict.Recorder) {
				srv := c.server(t, c.transient().Always())
				o := do(context.Background(), srv, c.client(t, srv, e.src()))
				if len(o.att) < 2 {
					t.Fatalf("the call made %s with the source at its %s, want a retry to read its wait (AttemptCount reports it)\n%s",
						schedfmt.Count(len(o.att), "attempt"), e.name, o.table(nil, 0, ""))
				}
				if !c.judgeLadder(t, o, "on its window's "+e.name+" edge,", e.edge) {
					t.Errorf("(the waits come from Seams.Rand at its %s: a client whose jitter Seams.Rand does not reach declares Spec.OwnRandom)", e.name)
				}
			})
		}
		return
	}
	t.Run("sample", func(t *verdict.Recorder) {
		srv := c.server(t, c.transient().Always())
		calls := (1000 + p.Attempts - 2) / (p.Attempts - 1)
		var call Call
		eighths := map[int]*[8]int{}
		n := 0
		for range calls {
			if call == nil || c.spec.Throttle != nil {
				call = c.client(t, srv, nil) // a fresh throttle for each call
			}
			o := do(context.Background(), srv, call)
			if len(o.att) < 2 {
				t.Fatalf("a call made %s, want a retry to read its wait (AttemptCount reports it)\n%s", schedfmt.Count(len(o.att), "attempt"), o.table(nil, 0, ""))
			}
			if !c.judgeLadder(t, o, "in", nil) {
				return
			}
			for k, w := range o.waits() {
				win := p.Window(k + 1)
				if win.Max <= win.Min {
					continue
				}
				if eighths[k+1] == nil {
					eighths[k+1] = new([8]int)
				}
				eighths[k+1][min(max(int(8*(w-win.Min)/(win.Max-win.Min+1)), 0), 7)]++
				n++
			}
		}
		for k := 1; k < p.Attempts; k++ {
			e := eighths[k]
			if e == nil {
				continue
			}
			for i, got := range e {
				if got == 0 {
					win := p.Window(k)
					lo := win.Min + (win.Max-win.Min)*time.Duration(i)/8
					t.Errorf("no wait %d of %d calls fell in %s, an eighth of its window %s: the jitter is narrower than declared (%s); waits per eighth %v",
						k, calls, schedfmt.Window(lo, lo+(win.Max-win.Min)/8), schedfmt.Window(win.Min, win.Max), p, *e)
					break
				}
			}
		}
	})
}

func attemptCount(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	o := c.once(t, context.Background(), c.transient().Always())
	if len(o.att) != p.Attempts {
		hint := ""
		if c.spec.AttemptsCap == 0 && len(o.att) == 5 && p.Attempts > 5 {
			hint = " (grpc-go caps maxAttempts at 5 unless grpc.WithMaxCallAttempts raises it: declare AttemptsCap)"
		}
		bad, reason := 0, fmt.Sprintf("gave up after %d", len(o.att))
		if len(o.att) > p.Attempts {
			bad, reason = p.Attempts+1, "one too many"
		}
		t.Errorf("the call made %s failing with %v, want %d (Policy.Attempts)%s\n%s", schedfmt.Count(len(o.att), "attempt"), c.spec.transient(), p.Attempts, hint,
			o.table(windowWant(p), bad, reason))
		return
	}
	if o.code() != c.spec.transient() {
		t.Errorf("the call gave up with %s, want code %v, the last attempt's\n%s", errCell(o.err), c.spec.transient(), o.table(windowWant(p), 0, "wrong code"))
	}
}

func retryableCodes(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	for _, code := range c.spec.Retryable {
		t.Run(caseName(code), func(t *verdict.Recorder) {
			o := c.once(t, context.Background(), grpcscript.Status(code, "retry me"), grpcscript.OK())
			switch {
			case len(o.att) != 2 || o.err != nil:
				t.Errorf("the call made %s and ended with %s, want it retried once and a success (Retryable: %s)\n%s",
					schedfmt.Count(len(o.att), "attempt"), errCell(o.err), codeList(c.spec.Retryable), o.table(windowWant(p), 0, "not retried"))
			default:
				c.judgeLadder(t, o, "in", nil)
			}
		})
	}
}

func nonRetryableCodes(t *verdict.Recorder, c *config) {
	for _, code := range c.spec.NonRetryable {
		t.Run(caseName(code), func(t *verdict.Recorder) {
			o := c.once(t, context.Background(), grpcscript.Status(code, "do not retry"), grpcscript.OK())
			switch {
			case len(o.att) != 1:
				t.Errorf("the call made %s on %v, want 1: %v is not Retryable (%s)\n%s", schedfmt.Count(len(o.att), "attempt"), code, code,
					codeList(c.spec.Retryable), o.table(func(i int) string { return map[bool]string{true: "at once", false: "none"}[i == 1] }, 2, "retried"))
			case o.code() != code:
				t.Errorf("the call ended with %s, want code %v, returned at once\n%s", errCell(o.err), code, o.table(nil, 0, "wrong code"))
			}
		})
	}
}

// exact is a window of d alone, widened by the Policy's Tolerance.
func exact(p retrytest.Policy, d time.Duration) retrytest.Window {
	return retrytest.Window{Min: max(d-p.Tolerance, 0), Max: d + p.Tolerance}
}

func pushbackWaited(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	longer := (p.Window(1).Max + 1234*time.Millisecond).Truncate(time.Millisecond)
	above := (max(p.Cap, p.Window(p.Attempts-1).Max)*2 + time.Second).Truncate(time.Second)
	for _, tc := range []struct {
		name string
		d    time.Duration
	}{{"longer", longer}, {"zero", 0}, {"above-cap", above}} {
		t.Run(tc.name, func(t *verdict.Recorder) {
			o := c.once(t, context.Background(), c.transient().Pushback(tc.d), grpcscript.OK())
			want := func(i int) string {
				if i == 1 {
					return "at once"
				}
				return "after " + schedfmt.Duration(tc.d)
			}
			switch {
			case len(o.att) != 2 || o.err != nil:
				t.Errorf("the call made %s and ended with %s, want a retry after the pushback of %s and a success\n%s",
					schedfmt.Count(len(o.att), "attempt"), errCell(o.err), schedfmt.Duration(tc.d), o.table(want, 0, "no retry"))
			case !in(o.waits()[0], exact(p, tc.d)):
				t.Errorf("the retry waited %s, want the pushback's %s exactly (grpc-retry-pushback-ms: %d)\n%s", schedfmt.Duration(o.waits()[0]),
					schedfmt.Duration(tc.d), tc.d.Milliseconds(), o.table(want, 2, "not the pushback"))
			}
		})
	}
}

func pushbackResetsBackoff(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	pb := (p.Window(1).Max + 1234*time.Millisecond).Truncate(time.Millisecond)
	tr := c.transient()
	o := c.once(t, context.Background(), tr.Times(2), tr.Pushback(pb), tr, grpcscript.OK())
	want := func(i int) string {
		switch i {
		case 1:
			return "at once"
		case 4:
			return "after " + schedfmt.Duration(pb)
		}
		w := map[int]retrytest.Window{2: p.Window(1), 3: p.Window(2), 5: p.Window(1)}[i]
		return "in " + schedfmt.Window(w.Min, w.Max)
	}
	waits := o.waits()
	switch {
	case len(o.att) < 5 && o.code() == c.spec.transient():
		t.Skipf("the call gave up after %s, before the suite could see the backoff after a pushback (AttemptCount or PushbackWaited reports why)", schedfmt.Count(len(o.att), "attempt"))
	case len(o.att) != 5 || o.err != nil:
		t.Fatalf("the call made %s and ended with %s, want 5 and a success: two failures, one with a pushback of %s, one more, then OK\n%s",
			schedfmt.Count(len(o.att), "attempt"), errCell(o.err), schedfmt.Duration(pb), o.table(want, 0, "not retried as scripted"))
	case !in(waits[2], exact(p, pb)):
		t.Skipf("the retry after the pushback waited %s, not the pushback's %s: the backoff after it cannot be judged (PushbackWaited reports it)",
			schedfmt.Duration(waits[2]), schedfmt.Duration(pb))
	case !in(waits[3], p.Window(1)):
		t.Errorf("the wait after the pushback's retry is %s, want the first wait's window %s: a valid pushback restarts the backoff (gRFC A6)\n%s",
			schedfmt.Duration(waits[3]), schedfmt.Window(p.Window(1).Min, p.Window(1).Max), o.table(want, 5, "the backoff did not restart"))
	}
}

func pushbackInvalid(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	how := c.spec.Pushback.Invalid
	for _, tc := range []struct{ name, value string }{{"negative", "-1"}, {"malformed", "soon"}} {
		t.Run(tc.name, func(t *verdict.Recorder) {
			o := c.once(t, context.Background(), c.transient().Trailer(grpcscript.PushbackKey, tc.value), grpcscript.OK())
			switch how {
			case StopsRetrying:
				if len(o.att) != 1 || o.code() != c.spec.transient() {
					t.Errorf("the call made %s and ended with %s after a pushback of %q, want it to stop retrying and return code %v (Pushback.Invalid: %s)\n%s",
						schedfmt.Count(len(o.att), "attempt"), errCell(o.err), tc.value, c.spec.transient(), how,
						o.table(func(i int) string { return map[bool]string{true: "at once", false: "none"}[i == 1] }, 2, "retried"))
				}
			case WaitsBackoff:
				if len(o.att) != 2 || o.err != nil {
					t.Errorf("the call made %s and ended with %s after a pushback of %q, want it retried after its backoff (Pushback.Invalid: %s)\n%s",
						schedfmt.Count(len(o.att), "attempt"), errCell(o.err), tc.value, how, o.table(windowWant(p), 0, "not retried"))
					return
				}
				c.judgeLadder(t, o, "the backoff's,", nil)
			}
		})
	}
}

// throttleRow is one call of RetryThrottling.
type throttleRow struct {
	call, want, got int // got -1: not made
	fail            bool
	tokens          float64 // the model's, after the call
	ret             string
}

func throttleTable(rows []throttleRow, bad int, reason string) string {
	g := schedfmt.Grid{Header: []string{"call", "server", "attempts", "want", "tokens after", "returned"}, Indent: "  "}
	for i, r := range rows {
		srv := "OK"
		if r.fail {
			srv = "fails every attempt"
		}
		g.Rows = append(g.Rows, schedfmt.GridRow{Cells: []string{fmt.Sprint(r.call), srv, fmt.Sprint(r.got), fmt.Sprint(r.want),
			strconv.FormatFloat(r.tokens, 'f', 3, 64), r.ret}, Marked: i == bad, Reason: reason})
	}
	return g.String()
}

func retryThrottling(t *verdict.Recorder, c *config) {
	p, th := c.spec.Policy, *c.spec.Throttle
	// stop is the failing calls until two in a row make one attempt.
	plan := func() (m *bucket, stop []int) {
		m = newBucket(th)
		for ones := 0; ones < 2 && len(stop) < 1000; {
			n := m.failingCall(p.Attempts)
			stop = append(stop, n)
			if n == 1 {
				ones++
			} else {
				ones = 0
			}
		}
		return m, stop
	}
	// play runs the calls of a plan against one client; successes is the
	// number of successful calls between the stop and a last failing call
	// (-1: none).
	play := func(t *verdict.Recorder, successes int) {
		m, stop := plan()
		var replies []grpcscript.Reply
		for _, n := range stop {
			replies = append(replies, c.transient().Times(n))
		}
		last := 0
		if successes >= 0 {
			replies = append(replies, grpcscript.OK().Times(successes))
			probe := *m
			for range successes {
				probe.succeed()
			}
			last = probe.failingCall(p.Attempts)
		}
		replies = append(replies, c.transient().Always())
		srv := c.server(t, replies...)
		call := c.client(t, srv, nil)
		var rows []throttleRow
		check := func(want int, fail bool) bool {
			o := do(context.Background(), srv, call)
			r := throttleRow{call: len(rows) + 1, want: want, got: len(o.att), fail: fail, ret: errCell(o.err)}
			if fail {
				m.failingCall(p.Attempts)
			} else {
				m.succeed()
			}
			r.tokens = m.tokens
			rows = append(rows, r)
			if fail && len(o.att) == want || !fail && o.err == nil && len(o.att) == 1 {
				return true
			}
			if successes >= 0 && r.call <= len(stop) {
				t.Skipf("the throttle did not stop the retries as declared, so its recovery cannot be judged (RetryThrottling/stops reports it)")
			}
			t.Errorf("call %d made %s, want %d: with Throttle{MaxTokens: %v, TokenRatio: %v} a failed attempt takes a token, a success gives back %v, and a retry needs more than %v left\n%s",
				r.call, schedfmt.Count(r.got, "attempt"), want, th.MaxTokens, th.TokenRatio, th.TokenRatio, th.MaxTokens/2, throttleTable(rows, len(rows)-1, "not as the throttle allows"))
			return false
		}
		m = newBucket(th)
		for _, n := range stop {
			if !check(n, true) {
				return
			}
		}
		if successes < 0 {
			return
		}
		for range successes {
			if !check(1, false) {
				return
			}
		}
		check(last, true)
	}
	t.Run("stops", func(t *verdict.Recorder) {
		_, stop := plan()
		if len(stop) >= 1000 {
			t.Skipf("the throttle never stops retries in 1000 calls")
		}
		play(t, -1)
	})
	t.Run("recovers", func(t *verdict.Recorder) {
		m, _ := plan()
		n := 0
		for probe := *m; ; n++ {
			q := probe
			if q.failingCall(p.Attempts) > 1 {
				break
			}
			if n >= 1000 {
				t.Skipf("the throttle lets a retry through only after more than 1000 successes")
			}
			probe.succeed()
		}
		play(t, n)
	})
}

func attemptTimeout(t *verdict.Recorder, c *config) {
	p, at := c.spec.Policy, c.spec.AttemptTimeout
	w1 := p.Window(1)
	// A client that never cuts the attempt ends it at the call's deadline.
	limit := 10*(at+w1.Max) + time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	o := c.once(t, ctx, grpcscript.Hang(), grpcscript.OK())
	want := func(i int) string {
		if i == 1 {
			return "cut at " + schedfmt.Duration(at)
		}
		return "at +" + schedfmt.Window(at+w1.Min, at+w1.Max)
	}
	switch {
	case len(o.att) != 2 || o.err != nil:
		t.Errorf("the call made %s and ended with %s after %s (the suite's deadline: %s), want the hung attempt cut at the AttemptTimeout %s, retried, and a success\n%s",
			schedfmt.Count(len(o.att), "attempt"), errCell(o.err), schedfmt.Duration(o.took), schedfmt.Duration(limit), schedfmt.Duration(at), o.table(want, 0, "not cut and retried"))
	case o.att[0].Deadline < at || o.att[0].Deadline > at+time.Millisecond:
		t.Errorf("the first attempt carried a deadline %s away, want the AttemptTimeout %s\n%s", schedfmt.Duration(o.att[0].Deadline), schedfmt.Duration(at), o.table(want, 1, "its deadline"))
	case !in(o.att[1].At.Sub(o.start), retrytest.Window{Min: at + w1.Min, Max: at + w1.Max}):
		t.Errorf("the retry came at +%s, want the AttemptTimeout %s and then the first wait, %s\n%s", schedfmt.Duration(o.att[1].At.Sub(o.start)),
			schedfmt.Duration(at), schedfmt.Window(w1.Min, w1.Max), o.table(want, 2, "not when the attempt was cut and the backoff waited"))
	}
}

func retryMetadata(t *verdict.Recorder, c *config) {
	key := c.spec.AttemptKey
	tr := c.transient()
	o := c.once(t, context.Background(), tr.Times(2), grpcscript.OK())
	want := func(i int) string {
		if i == 1 {
			return "no " + key
		}
		return key + ": " + strconv.Itoa(i-1)
	}
	if len(o.att) != 3 {
		t.Fatalf("the call made %s, want 3 to read their metadata (two failures, then OK)\n%s", schedfmt.Count(len(o.att), "attempt"), o.table(want, 0, "not retried"))
	}
	for i, a := range o.att {
		got := a.Metadata.Get(key)
		if i == 0 && len(got) == 0 || i > 0 && slices.Equal(got, []string{strconv.Itoa(i)}) {
			continue
		}
		t.Errorf("attempt %d carried %s %q, want %s\n%s", i+1, key, got, want(i+1), o.table(want, i+1, fmt.Sprintf("%s: %s", key, strings.Join(got, ","))))
		return
	}
}

func deadlineSpansAttempts(t *verdict.Recorder, c *config) {
	p := c.spec.Policy
	d := p.Window(1).Max + max(p.Window(2).Min/2, time.Millisecond)
	if p.Attempts == 2 {
		d = p.Window(1).Max + time.Second
	}
	d = d.Truncate(time.Millisecond) + time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	o := c.once(t, ctx, c.transient().Always())
	want := func(i int) string {
		if i > len(o.att) {
			return ""
		}
		return schedfmt.Duration(d-o.att[i-1].At.Sub(o.start)) + " left"
	}
	if len(o.att) < 2 {
		t.Fatalf("the call made %s in its deadline of %s, want a retry within the first wait's window %s (AttemptCount and WaitsInWindows judge it)\n%s",
			schedfmt.Count(len(o.att), "attempt"), schedfmt.Duration(d), schedfmt.Window(p.Window(1).Min, p.Window(1).Max), o.table(want, 0, ""))
	}
	for i, a := range o.att {
		left := d - a.At.Sub(o.start)
		if a.Deadline < left || a.Deadline > left+time.Millisecond {
			got := "no deadline"
			if a.Deadline > 0 {
				got = "a deadline " + schedfmt.Duration(a.Deadline) + " away"
			}
			t.Errorf("attempt %d carried %s, want what is left of the call's %s deadline, %s: one deadline spans every attempt\n%s",
				i+1, got, schedfmt.Duration(d), schedfmt.Duration(left), o.table(want, i+1, "not the call's deadline"))
			return
		}
	}
	if o.took > d {
		t.Errorf("the call returned %s after it began, past its deadline of %s\n%s", schedfmt.Duration(o.took), schedfmt.Duration(d), o.table(want, 0, "past the deadline"))
	}
}

// midWait is an instant in the first wait, surely: half its least.
func midWait(p retrytest.Policy) time.Duration {
	return (p.Window(1).Min / 2).Truncate(time.Millisecond)
}

func deadlineCutsWait(t *verdict.Recorder, c *config) {
	d := midWait(c.spec.Policy)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	o := c.once(t, ctx, c.transient().Always())
	if len(o.att) != 1 || o.took != d || o.code() != codes.DeadlineExceeded {
		t.Errorf("the call made %s and returned %s after %s, want one attempt, and code DeadlineExceeded at its deadline, %s, in the first wait\n%s",
			schedfmt.Count(len(o.att), "attempt"), errCell(o.err), schedfmt.Duration(o.took), schedfmt.Duration(d), o.table(windowWant(c.spec.Policy), 0, "not cut at the deadline"))
	}
}

func cancelDuringWait(t *verdict.Recorder, c *config) {
	d := midWait(c.spec.Policy)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(d, cancel)
	o := c.once(t, ctx, c.transient().Always())
	if len(o.att) != 1 || o.took != d || o.code() != codes.Canceled && !errors.Is(o.err, context.Canceled) {
		t.Errorf("the call made %s and returned %s after %s, want one attempt, and code Canceled when it was canceled, at %s, in the first wait\n%s",
			schedfmt.Count(len(o.att), "attempt"), errCell(o.err), schedfmt.Duration(o.took), schedfmt.Duration(d), o.table(windowWant(c.spec.Policy), 0, "not ended by the cancel"))
	}
}

func noLeaks(t *verdict.Recorder, c *config) {
	for _, tc := range []struct {
		name    string
		replies []grpcscript.Reply
		cancel  bool
	}{
		{"succeeded", []grpcscript.Reply{grpcscript.OK()}, false},
		{"given-up", []grpcscript.Reply{c.transient().Always()}, false},
		{"canceled", []grpcscript.Reply{c.transient().Always()}, true},
	} {
		t.Run(tc.name, func(t *verdict.Recorder) {
			if tc.cancel && needsFirstWait(c.spec) != "" {
				t.Skipf("%s", needsFirstWait(c.spec))
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancel {
				time.AfterFunc(midWait(c.spec.Policy), cancel)
			}
			srv := c.server(t, tc.replies...)
			do(ctx, srv, c.client(t, srv, nil))
			cancel()
			srv.Close()
			synctest.Wait()
			if left := leftInBubble(); len(left) > 0 {
				t.Errorf("the client left %s running after its call ended and the server closed its connections (Seams.Dial's):\n    %s",
					schedfmt.Count(len(left), "goroutine"), strings.Join(left, "\n    "))
			}
		})
	}
}

// suiteFrames are functions of the suite's own goroutines in a bubble.
var suiteFrames = []string{
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict.(*Recorder).Exec",
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict.(*Recorder).Exec.func1",
	"testing/synctest.Test",
	"testing/synctest.testingSynctestTest",
}

// leftInBubble names the goroutines of the caller's bubble but the
// suite's and the caller's: each with the frame it waits in.
func leftInBubble() []string {
	_, dump := settle.Snapshot(nil)
	gs := settle.Parse(dump)
	id, bubble := goheader.Current()
	var out []string
	for _, g := range gs {
		if bubble == 0 || g.Bubble != bubble || g.ID == id || slices.ContainsFunc(suiteFrames, g.HasFrame) {
			continue
		}
		where := g.State
		for _, f := range g.Frames() {
			if !strings.HasPrefix(f.Function, "runtime.") && !strings.HasPrefix(f.Function, "internal/") && !strings.HasPrefix(f.Function, "sync.") {
				where = fmt.Sprintf("goroutine %d (%s) in %s at %s:%d", g.ID, g.State, f.Function, f.File, f.Line)
				break
			}
		}
		out = append(out, where)
	}
	return out
}
