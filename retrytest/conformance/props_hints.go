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

// hintCase is one Retry-After the suite sends, and what the code must
// make of it.
type hintCase struct {
	name   string // the case's name: "rfc850"
	what   string // what the hint is, for a failure: "RFC 850 date"
	field  string // the field the value comes in: "" for Retry-After
	value  string
	extra  http.Header // other fields of the response
	status int         // the status the hint comes on
	// either says both the hint's wait and the backoff's are right: a
	// value RFC 9110's grammar forbids that a lenient reader may still
	// read correctly.
	either bool
	// want is the wait the code must make; curve means the Policy's
	// window of the first retry (at the Max source: its top), giveUp that
	// the code must end the call, forever that it must still be waiting
	// when the suite stops (a hint beyond every horizon, with no ceiling).
	want    time.Duration
	curve   bool
	giveUp  bool
	forever bool
	// date is an HTTP-date, after the call's start plus after: the wait
	// it asks for is counted from the response, not from the start.
	date  bool
	after time.Duration
	// cutBy is the Spec's Budget when the wait would end past it: the
	// call must end instead of retrying.
	cutBy time.Duration
}

// answeredAt is h for a response that arrived first after the call's
// start.
func (c *config) answeredAt(h hintCase, first time.Duration) hintCase {
	if !h.date || first == 0 {
		return h
	}
	d := h
	d.want, d.giveUp = c.spec.clampHint(h.after - first)
	return d
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
	w, giveUp := c.spec.clampHint(d)
	return hintCase{name: name, what: what, value: value, want: w, giveUp: giveUp, status: c.spec.ra.Statuses[0]}
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
		hs := []hintCase{c.hint("zero", "zero", "0", 0), past}
		if c.spec.ra.ZeroMeansBackoff {
			for i := range hs {
				hs[i].curve = true
			}
		}
		return hs
	case "HintFields":
		return c.fieldCases(start)
	case "RetryAfterMalformed":
		return []hintCase{
			{name: "malformed", what: "malformed", value: "soon", curve: true, status: c.spec.ra.Statuses[0]},
			{name: "empty", what: "empty", value: "", curve: true, status: c.spec.ra.Statuses[0]},
		}
	case "RetryAfterAbsurd":
		huge := c.hint("huge", "larger than a Duration holds", "9223372037", retryafter.Forever)
		if c.spec.ra.Max == retryafter.Forever {
			huge.forever = true
		}
		return []hintCase{huge,
			{name: "negative", what: "negative", value: "-5", curve: true, status: c.spec.ra.Statuses[0]},
			{name: "nan", what: "not-a-number", value: "NaN", curve: true, status: c.spec.ra.Statuses[0]},
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

// judgeHint says what is wrong with a wait of got for h, or "". retried is
// false when the code made no second attempt; returned, whether it
// returned (false: it was still waiting when the suite stopped). base is
// the code's own wait after a transient failure without a hint, at the
// same source (baseOK false when it did not retry that either).
func (c *config) judgeHint(h hintCase, retried, returned bool, got time.Duration, b base) string {
	w := c.spec.Policy.Window(1)
	base, baseOK := b.wait, b.ok
	switch {
	case h.forever && retried && got < retryafter.Forever/2:
		return fmt.Sprintf("retried after %s, want a wait of about 292 years (with no ceiling the hint asks for that): a wait this short has wrapped", schedfmt.Duration(got))
	case h.forever:
		return ""
	case h.either && h.cutBy > 0 && !retried:
		return "" // the hint's wait ends past the Budget, and the call with it
	case h.either && h.cutBy > 0 && (got == 0 || !w.Contains(got)):
		return fmt.Sprintf("waited %s, want the backoff's wait, or the call to end at its %s Budget", schedfmt.Duration(got), schedfmt.Duration(h.cutBy))
	case h.either && h.cutBy > 0:
		return ""
	case h.cutBy > 0 && retried:
		return fmt.Sprintf("retried after %s, want the call to end at its %s Budget: the %s wait ends past it", schedfmt.Duration(got), schedfmt.Duration(h.cutBy), schedfmt.Duration(h.want))
	case h.cutBy > 0:
		return ""
	case h.giveUp && retried:
		return fmt.Sprintf("retried after %s, want to give up: the hint is above the %s ceiling", schedfmt.Duration(got), schedfmt.Duration(c.spec.ra.Max))
	case h.giveUp && !returned:
		return "still waiting, with no retry, when the suite stopped; want the call to give up: the hint is above the ceiling"
	case h.giveUp:
		return ""
	case !retried && !returned:
		return "still waiting, with no retry, when the suite stopped, want a retry"
	case !retried:
		return "gave up (returned without a retry), want a retry"
	case h.either && got == h.want:
		return ""
	case h.either && got == 0 && (!baseOK || base > 0):
		return fmt.Sprintf("retried at once, want the backoff's wait (%s), or %s: a value RFC 9110 forbids must fall back to the backoff, or be read right", c.backoffWant(base, baseOK, w), schedfmt.Duration(h.want))
	case h.either && (b.exact && got != base || !(baseOK && got == base) && !w.Contains(got)):
		return fmt.Sprintf("waited %s, want the backoff's wait (%s), or %s: the value was misread", schedfmt.Duration(got), c.backoffWant(base, baseOK, w), schedfmt.Duration(h.want))
	case h.either:
		return ""
	case h.curve && got == 0 && (!baseOK || base > 0):
		return fmt.Sprintf("retried at once, want the backoff's wait (%s): a hint that cannot be read must fall back to the backoff, never to zero", c.backoffWant(base, baseOK, w))
	case h.curve && b.exact && got != base:
		return fmt.Sprintf("waited %s, want the backoff's wait, %s as after %s without a hint (twice)", schedfmt.Duration(got), schedfmt.Duration(base), c.transientName())
	case h.curve && baseOK && got != base && !w.Contains(got):
		return fmt.Sprintf("waited %s, want the backoff's wait, %s as after %s without a hint", schedfmt.Duration(got), schedfmt.Duration(base), c.transientName())
	case h.curve && !baseOK && !w.Contains(got):
		return fmt.Sprintf("waited %s, want the backoff's wait, within %s", schedfmt.Duration(got), w)
	case !h.curve && got != h.want:
		return fmt.Sprintf("waited %s, want %s", schedfmt.Duration(got), schedfmt.Duration(h.want))
	}
	return ""
}

func (c *config) backoffWant(base time.Duration, baseOK bool, w retrytest.Window) string {
	if baseOK {
		return fmt.Sprintf("%s, as after %s without a hint", schedfmt.Duration(base), c.transientName())
	}
	return fmt.Sprintf("%s at the top of the source", w)
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
			at := cl.attempts()
			retried := len(at) >= 2
			var got time.Duration
			if retried {
				got = at[1] - at[0]
			}
			if len(at) > 0 {
				h = c.answeredAt(h, at[0])
				if b := c.spec.Budget; b > 0 && !h.curve && !h.giveUp && !h.forever && satdur.Add(at[0], h.want) >= b {
					h.cutBy = b
				}
			}
			if why := c.judgeHint(h, retried, cl.rc.Returned(), got, b); why != "" {
				t.Errorf("%s Retry-After (%q) on %s: %s\n%s", h.what, h.value, schedfmt.Status(h.status), why, cl.table())
			}
		})
	}
}

// retryableStatuses has a case per Retryable status: the code must retry
// it, after the backoff.
func retryableStatuses(t tb, c *config) {
	b := c.firstWait(t)
	for _, s := range c.spec.Retryable {
		t.Run(strconv.Itoa(s), func(t tb) {
			cl := c.run(t, seqrand.Max(), []answer{{status: s}, success})
			at := cl.attempts()
			switch {
			case len(at) < 2 && !cl.rc.Returned():
				t.Errorf("%s: still waiting, with no retry, when the suite stopped; want a retry: it is a Retryable status\n%s", schedfmt.Status(s), cl.table())
			case len(at) < 2:
				t.Errorf("%s: not retried (the call returned), want a retry: it is a Retryable status\n%s", schedfmt.Status(s), cl.table())
			default:
				if why := c.judgeBackoff(at[1]-at[0], b); why != "" {
					t.Errorf("%s: %s\n%s", schedfmt.Status(s), why, cl.table())
				}
			}
		})
	}
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

// judgeBackoff says what is wrong with got, a wait that must be the
// backoff's, or "": base is the code's own wait after a transient
// failure at the same source.
func (c *config) judgeBackoff(got time.Duration, b base) string {
	w := c.spec.Policy.Window(1)
	base, baseOK := b.wait, b.ok
	switch {
	case got == 0 && (!baseOK || base > 0) && w.Max > 0:
		return fmt.Sprintf("retried at once, want the backoff's wait (%s)", c.backoffWant(base, baseOK, w))
	case baseOK && got != base && !w.Contains(got):
		return fmt.Sprintf("retried after %s, want %s, the backoff's wait as after %s", schedfmt.Duration(got), schedfmt.Duration(base), c.transientName())
	case !baseOK && !w.Contains(got):
		return fmt.Sprintf("retried after %s, want within %s", schedfmt.Duration(got), w)
	}
	return ""
}

// connectionErrors has a case per network error, reset and timeout: the
// code must retry it, after the backoff.
func connectionErrors(t tb, c *config) {
	b := c.firstWait(t)
	for _, e := range connErrors {
		t.Run(e.name, func(t tb) {
			cl := c.run(t, seqrand.Max(), []answer{{err: e.script}, success})
			at := cl.attempts()
			switch {
			case len(at) < 2 && !cl.rc.Returned():
				t.Errorf("%s: still waiting, with no retry, when the suite stopped; want a retry\n%s", e.text, cl.table())
			case len(at) < 2:
				t.Errorf("%s: not retried (the call returned), want a retry\n%s", e.text, cl.table())
			default:
				if why := c.judgeBackoff(at[1]-at[0], b); why != "" {
					t.Errorf("%s: %s\n%s", e.text, why, cl.table())
				}
			}
		})
	}
}

func skipOneAttempt(c *config) string {
	if c.spec.retries() == 0 {
		return "the Policy makes one attempt"
	}
	return ""
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

// retrySignals has a case per Spec.Signals entry: a response whose
// body or header decides whether the code retries it, after the backoff,
// or ends the call with it at once.
func retrySignals(t tb, c *config) {
	b := c.firstWait(t)
	for _, v := range c.spec.Signals {
		t.Run(v.Name, func(t tb) {
			a := answer{status: v.Status, header: v.Header.Clone(), body: v.Body}
			cl := c.run(t, seqrand.Max(), []answer{a, success})
			at := cl.attempts()
			what := fmt.Sprintf("%s with body %q", schedfmt.Status(v.Status), schedfmt.Cut(v.Body, 60))
			switch {
			case v.Retry && len(at) < 2 && !cl.rc.Returned():
				t.Errorf("%s: still waiting, with no retry, when the suite stopped; want a retry\n%s", what, cl.table())
			case v.Retry && len(at) < 2:
				t.Errorf("%s: not retried (the call returned), want a retry\n%s", what, cl.table())
			case v.Retry:
				if why := c.judgeBackoff(at[1]-at[0], b); why != "" {
					t.Errorf("%s: %s\n%s", what, why, cl.table())
				}
			case len(at) != 1:
				t.Errorf("%s: %s, want 1: the body says the failure is final\n%s", what, schedfmt.Count(len(at), "attempt"), cl.table())
			case !cl.rc.Returned() || cl.rc.At() != at[0]:
				t.Errorf("%s: %s, want returned at %s, when the attempt ended: a final failure ends the call without a wait\n%s", what, cl.rc, schedfmt.Duration(at[0]), cl.table())
			}
		})
	}
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
