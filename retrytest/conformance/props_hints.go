package conformance

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The properties of what a server says: statuses, connection errors and
// Retry-After, for a client and a pure policy.

// hintCase is one Retry-After the suite sends, and what it asks for: the
// rule says what the code must make of it.
type hintCase struct {
	name   string // the case's name: "rfc850"
	what   string // what the hint is, for a failure: "RFC 850 date"
	field  string // the field the value comes in: "" for Retry-After
	value  string
	extra  http.Header // other fields of the response
	status int         // the status the hint comes on
	// hint is the wait the value asks for, and readable whether RFC 9110
	// lets the code read it (false for malformed, empty, negative, NaN).
	hint     time.Duration
	readable bool
	// either says the value is one RFC 9110's grammar forbids that a
	// lenient reader may still read right: the wait of an unreadable hint
	// is right, and so is the hint's.
	either bool
	// date is an HTTP-date, after the call's start plus after: the wait
	// it asks for is counted from the response, not from the start.
	date  bool
	after time.Duration
}

// question is what the rule wants of h, for a response that arrived first
// after the call's start (an HTTP-date is counted from it).
func (c *config) hintQuestion(t tb, h hintCase, first time.Duration) question {
	t.Helper()
	d := h.hint
	if h.date {
		d = max(0, h.after-first)
	}
	o := retrytest.Outcome{Status: h.status, Header: c.hintAnswer(h).header, Body: c.bodyFor(h.status), Now: fakeclock.Epoch.Add(first)}
	q := question{want: c.want(t, 1, o, d, h.readable)}
	if h.either {
		alt := c.want(t, 1, o, d, !h.readable)
		q.alt = &alt
	}
	if q.want.Final {
		q.why = fmt.Sprintf("the hint is above the %s ceiling (Hints.GiveUp)%s", schedfmt.Duration(c.spec.ra.Max), c.byRule())
	}
	q.cutBy = c.cutByBudget(q.want, first)
	return q
}

// hintSeconds is a whole number of seconds the Spec honours as is.
func (c *config) hintSeconds() (time.Duration, bool) {
	lo := max(c.spec.ra.Min, time.Second)
	d := lo.Truncate(time.Second)
	if d < lo {
		d = satdur.Add(d, time.Second)
	}
	if d == time.Second && c.spec.ra.Max >= 7*time.Second && c.spec.ra.Min <= 7*time.Second {
		d = 7 * time.Second
	}
	return d, d <= c.spec.ra.Max
}

func (c *config) hint(name, what, value string, d time.Duration) hintCase {
	return hintCase{name: name, what: what, value: value, hint: d, readable: true, status: c.spec.ra.Statuses[0]}
}

// unreadable is a hint the code may not read.
func (c *config) unreadable(name, what, value string) hintCase {
	return hintCase{name: name, what: what, value: value, status: c.spec.ra.Statuses[0]}
}

func secs(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) }

// hintCases returns the cases of one property, for a call that begins at
// start: RetryAfterSeconds has one per status the Spec reads hints on;
// the others send theirs on the first of those statuses.
func (c *config) hintCases(prop string, start time.Time) []hintCase {
	d, _ := c.hintSeconds()
	at := start.Add(d)
	switch prop {
	case "RetryAfterSeconds":
		var hs []hintCase
		for _, s := range c.spec.ra.Statuses {
			h := c.hint(strconv.Itoa(s), "seconds", secs(d), d)
			h.status = s
			hs = append(hs, h)
		}
		// RFC 9110 §5.5: the whitespace around a field value is not part
		// of it. net/http trims it off a value read from the wire, so a
		// client may take it for malformed and wait its backoff; it must
		// not take it for 0.
		ws := c.hint("whitespace", "seconds in whitespace", " "+secs(d)+"\t", d)
		ws.either = true
		return append(hs, ws)
	case "RetryAfterHTTPDate":
		hs := []hintCase{
			c.hint("imf-fixdate", "IMF-fixdate", retryafter.FormatHTTPDate(at, retryafter.IMFFixdate), d),
			c.hint("rfc850", "RFC 850 date", retryafter.FormatHTTPDate(at, retryafter.RFC850), d),
			c.hint("asctime", "asctime date", retryafter.FormatHTTPDate(at, retryafter.Asctime), d),
			// The same instant in a zone hours ahead of GMT (Central
			// European Summer Time, unless this machine's time.Local
			// knows it): only GMT is allowed (RFC 9110 §5.6.7), so the
			// backoff is right, and so is the instant's own wait; a
			// reader that takes the zone for GMT waits hours too long.
			c.hint("zone", "date in a zone other than GMT", at.In(otherZone()).Format("Mon, 02 Jan 2006 15:04:05 MST"), d),
		}
		for i := range hs {
			hs[i].date, hs[i].after = true, d
		}
		hs[3].either = true
		return hs
	case "RetryAfterClamped":
		over := satdur.Add(c.spec.ra.Max, time.Hour)
		return []hintCase{c.hint("", "above the ceiling", secs(over), over)}
	case "RetryAfterFloored":
		past := c.hint("past-date", "date in the past", retryafter.FormatHTTPDate(start.Add(-time.Hour), retryafter.IMFFixdate), 0)
		return []hintCase{c.hint("zero", "zero", "0", 0), past}
	case "HintFields":
		return c.fieldCases(start)
	case "RetryAfterMalformed":
		return []hintCase{c.unreadable("malformed", "malformed", "soon"), c.unreadable("empty", "empty", "")}
	case "RetryAfterAbsurd":
		return []hintCase{
			c.hint("huge", "larger than a Duration holds", "9223372037", retryafter.Forever),
			c.unreadable("negative", "negative", "-5"),
			c.unreadable("nan", "not-a-number", "NaN"),
		}
	}
	return nil
}

// eachHint runs f on every case of the hint property prop, each as a case
// of its own when the property has several.
func (c *config) eachHint(t tb, prop string, f func(t tb, h hintCase)) {
	hs := c.hintCases(prop, fakeclock.Epoch)
	for i, h := range hs {
		run := func(t tb) {
			// The case again, for a call that begins now.
			f(t, c.hintCases(prop, c.callStart())[i])
		}
		if h.name == "" {
			run(t)
			continue
		}
		t.Run(h.name, run)
	}
}

// callStart is when the next call begins: the fake clock's start, or in a
// bubble its clock, moved to a whole second, since an HTTP-date has no
// fraction.
func (c *config) callStart() time.Time {
	if !c.inBubble() {
		return fakeclock.Epoch
	}
	if frac := time.Duration(time.Now().Nanosecond()); frac > 0 {
		sleepAndWait(time.Second - frac)
	}
	return time.Now()
}

func skipHint(prop string) func(c *config) string {
	return func(c *config) string {
		switch {
		case c.spec.Hints == nil:
			return "the Spec says the code does not honour Retry-After"
		case c.spec.retries() == 0:
			return "the Policy makes one attempt: a hint has nothing to delay"
		case prop == "HintFields" && len(c.spec.ra.Fields) == 1 && c.readsRetryAfter():
			return "the code reads Retry-After alone (Hints.Fields): the RetryAfter properties check it"
		case prop != "HintFields" && !c.readsRetryAfter():
			return "the code does not read Retry-After (Hints.Fields): HintFields checks the fields it reads"
		}
		if d, ok := c.hintSeconds(); !ok {
			return fmt.Sprintf("no whole number of seconds from %s lies within [%s, %s]", schedfmt.Duration(d), schedfmt.Duration(c.spec.ra.Min), schedfmt.Duration(c.spec.ra.Max))
		}
		switch {
		case prop == "RetryAfterFloored" && c.spec.ra.Min == 0 && !c.spec.ra.ZeroMeansBackoff:
			return "the Spec declares no floor (Hints.Min is 0): a hint of 0, or a date past, means retry at once, as RFC 9110 allows"
		case prop == "RetryAfterClamped" && c.spec.ra.Max == retryafter.Forever:
			return "the Spec declares no ceiling (Hints.Max is retryafter.Forever): no hint is above it (RetryAfterAbsurd checks that a huge one does not wrap)"
		}
		return ""
	}
}

// hintAnswer is the reply that carries a case's Retry-After.
func (c *config) hintAnswer(h hintCase) answer {
	header := http.Header{}
	for k, vs := range h.extra {
		header[k] = slices.Clone(vs)
	}
	if h.name == "precedence" {
		return answer{status: h.status, header: header}
	}
	field := h.field
	if field == "" {
		field = "Retry-After"
	}
	header[http.CanonicalHeaderKey(field)] = []string{h.value}
	return answer{status: h.status, header: header}
}

// otherZones are zones ahead of GMT, for a date in a zone other than GMT:
// Central European Summer Time first.
var otherZones = []*time.Location{
	time.FixedZone("CEST", 2*60*60),
	time.FixedZone("EEST", 3*60*60),
	time.FixedZone("JST", 9*60*60),
	time.FixedZone("AEST", 10*60*60),
}

// otherZone is the first of otherZones whose abbreviation time.Local does
// not define. time.Parse reads an abbreviation with the offset time.Local
// gives it, and one it does not know as GMT: on a machine in Berlin a
// reader that takes any zone for GMT would read "CEST" right, by chance,
// and the case would judge the machine instead of the code.
func otherZone() *time.Location {
	for _, z := range otherZones {
		probe := time.Date(2026, 9, 18, 12, 0, 0, 0, z).Format(time.RFC1123)
		if t, err := time.Parse(time.RFC1123, probe); err == nil {
			if _, off := t.Zone(); off == 0 {
				return z
			}
		}
	}
	panic("conformance: time.Local defines CEST, EEST, JST and AEST: no zone other than GMT that time.Parse reads as GMT")
}

// transientName names the transient failure the baselines are made of.
func (c *config) transientName() string {
	if c.shape == "loop" {
		return "a transient error"
	}
	if s := c.transientStatus(); s != 0 {
		return schedfmt.Status(s)
	}
	return "a connection reset"
}

// hintProp needs, for each case, the code's answer to the hint: a second
// attempt, the end of the call, or a wait the suite saw to its horizon.
func hintProp(prop string) func(t tb, c *config) {
	return func(t tb, c *config) {
		b := c.firstWait(t)
		c.eachHint(t, prop, func(t tb, h hintCase) {
			script := []answer{c.hintAnswer(h), success}
			cl := c.run(t, seqrand.Max(), script)
			var first time.Duration
			if at := cl.attempts(); len(at) > 0 {
				first = at[0]
			}
			q := c.hintQuestion(t, h, first)
			if why := c.judge(seenOf(cl), q, b); why != "" {
				t.Errorf("%s Retry-After (%q) on %s: %s\n%s", h.what, h.value, schedfmt.Status(h.status), why, cl.table())
				return
			}
			if q.alt == nil && !h.date {
				if why := c.fillsWindow(q.want, seenOf(cl).got, func() (time.Duration, bool) {
					s := seenOf(c.run(t, seqrand.Max(), script))
					return s.got, s.retried
				}); why != "" {
					t.Errorf("%s Retry-After (%q) on %s: %s", h.what, h.value, schedfmt.Status(h.status), why)
				}
			}
		})
	}
}

// retryableStatuses has a case per Retryable status: the code must retry
// it, after the wait the rule wants (by default the backoff's).
func retryableStatuses(t tb, c *config) {
	b := c.firstWait(t)
	for _, s := range c.spec.Retryable {
		t.Run(strconv.Itoa(s), func(t tb) {
			o := retrytest.Outcome{Status: s, Header: http.Header{}, Body: c.bodyFor(s), Now: fakeclock.Epoch}
			c.firstRetry(t, schedfmt.Status(s), answer{status: s}, c.want(t, 1, o, 0, false), "it is a Retryable status", b)
		})
	}
}

// firstRetry makes a call whose first attempt ends with a, then succeeds,
// and holds what the code did to w: a retry after w's wait, or, when w is
// Final, the call's end at once.
func (c *config) firstRetry(t tb, what string, a answer, w Want, why string, b base) seen {
	t.Helper()
	cl := c.run(t, seqrand.Max(), []answer{a, success})
	if w.Final {
		if bad := finalAtOnce(cl, why+c.byRule()); bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
		return seenOf(cl)
	}
	if bad := c.judge(seenOf(cl), question{want: w}, b); bad != "" {
		t.Errorf("%s: %s\n%s", what, bad, cl.table())
		return seenOf(cl)
	}
	if bad := c.fillsWindow(w, seenOf(cl).got, func() (time.Duration, bool) {
		s := seenOf(c.run(t, seqrand.Max(), []answer{a, success}))
		return s.got, s.retried
	}); bad != "" {
		t.Errorf("%s: %s", what, bad)
	}
	return seenOf(cl)
}

func skipRetryable(c *config) string {
	switch {
	case c.spec.retries() == 0:
		return "the Policy makes one attempt"
	case len(c.spec.Retryable) == 0:
		return "the Spec names no Retryable status"
	}
	return ""
}

// connectionErrors has a case per network error, reset and timeout: the
// code must retry it after the wait the rule wants (by default the
// backoff's), or, where the rule says the code does not retry it, return
// the error at once.
func connectionErrors(t tb, c *config) {
	b := c.firstWait(t)
	for _, e := range connErrors {
		t.Run(e.name, func(t tb) {
			w := c.want(t, 1, retrytest.Outcome{Err: e.err, Now: fakeclock.Epoch}, 0, false)
			c.firstRetry(t, e.text, answer{err: e.script}, w, "the Rule says the code does not retry it", b)
		})
	}
}

func skipOneAttempt(c *config) string {
	if c.spec.retries() == 0 {
		return "the Policy makes one attempt"
	}
	return ""
}

// skipIndependentCalls skips a property that holds a call to what the same
// code does alone, when the Spec says its calls share state.
func skipIndependentCalls(c *config) string {
	if c.spec.SharedState != "" {
		return fmt.Sprintf("the Spec says the calls share state (%s): a call need not do what it does alone", c.spec.SharedState)
	}
	return skipOneAttempt(c)
}

// idempotencyKey needs a call that retries: every attempt of it must send
// the same key, and the next call another.
func idempotencyKey(t tb, c *config) {
	key := c.spec.IdempotencyKey
	script := []answer{transient, transient, success}
	tr := c.newTrial(t, seqrand.Max(), script, 2)
	first := tr.begin(script, nil)
	first.finish()
	second := tr.begin(script, nil)
	second.finish()
	keys := func(cl *call) []string {
		var out []string
		for _, r := range tr.tr.Requests() {
			if r.Header.Get(callHeader) == strconv.Itoa(cl.n) {
				out = append(out, r.Header.Get(key))
			}
		}
		return out
	}
	k1, k2 := keys(first), keys(second)
	if len(k1) < 2 {
		first.skipNoRetry("in the first call")
	}
	for i, k := range k1 {
		switch {
		case k == "":
			t.Errorf("attempt %d of a call sent no %s header, want the call's key on every attempt", i+1, key)
			return
		case k != k1[0]:
			t.Errorf("attempt %d of a call sent %s %q, attempt 1 %q: a retry must send the same key, or the server applies the side effect twice", i+1, key, k, k1[0])
			return
		}
	}
	if len(k2) > 0 && k2[0] == k1[0] {
		t.Errorf("two calls sent the same %s %q: each call needs a key of its own, or the server drops the second call as a duplicate", key, k1[0])
	}
}

func skipIdempotency(c *config) string {
	if c.spec.IdempotencyKey == "" {
		return "the Spec names no IdempotencyKey header"
	}
	return skipOneAttempt(c)
}

// retrySignals has a case per Spec.Signals entry: a response whose body
// or header decides whether the code retries it, after the wait the rule
// wants, or ends the call with it at once.
func retrySignals(t tb, c *config) {
	b := c.firstWait(t)
	for _, v := range c.spec.Signals {
		t.Run(v.Name, func(t tb) {
			what := fmt.Sprintf("%s with body %q", schedfmt.Status(v.Status), schedfmt.Cut(v.Body, 60))
			got := c.firstRetry(t, what, answer{status: v.Status, header: v.Header.Clone(), body: v.Body}, c.signalWant(t, v), "the body says the failure is final", b)
			if v.StatusDecides || !got.returned && !got.retried {
				return
			}
			control := c.run(t, seqrand.Max(), []answer{{status: v.Status}, success})
			c.controlDiffers(t, v, got.retried, seenOf(control).retried, control.table())
		})
	}
}

// controlDiffers holds the outcome of a Signal's control — the same
// status, with the Spec's body for it and without the Signal's header — to
// the opposite of the Signal's: a Signal whose body or header made no
// difference was never observed to decide anything (issue 32, point 4).
func (c *config) controlDiffers(t tb, v Signal, signalRetried, controlRetried bool, table string) {
	t.Helper()
	if signalRetried != controlRetried {
		return
	}
	did := "was not retried"
	if controlRetried {
		did = "was retried"
	}
	t.Errorf("the %s made no difference: %s with the Spec's body for it (Bodies[%d]) and without the Signal's header %s too, so the code decided by the status alone; if it does, say so (Signal.StatusDecides), else it ignores the signal\n%s",
		signalWhat(v), schedfmt.Status(v.Status), v.Status, did, table)
}

// signalWhat names what a Signal sends beside its status.
func signalWhat(v Signal) string {
	switch {
	case len(v.Header) > 0 && v.Body != "":
		return "Signal's body and header"
	case len(v.Header) > 0:
		return "Signal's header"
	}
	return "Signal's body"
}

// signalWant is what the rule wants after v: Final when v says the code
// does not retry, else the rule's wait after v's response.
func (c *config) signalWant(t tb, v Signal) Want {
	t.Helper()
	if !v.Retry {
		return Want{Final: true}
	}
	w := c.want(t, 1, retrytest.Outcome{Status: v.Status, Header: v.Header.Clone(), Body: v.Body, Now: fakeclock.Epoch}, 0, false)
	if w.Final {
		// A Signal that says retry overrides the status's own verdict
		// (a Permanent 400 with its retry flag set): the backoff's wait.
		return c.ladder(1)
	}
	return w
}

func skipSignals(c *config) string {
	switch {
	case len(c.spec.Signals) == 0:
		return "the Spec names no Signals (responses whose body or a header decides)"
	case c.spec.retries() == 0:
		return "the Policy makes one attempt"
	}
	return ""
}
