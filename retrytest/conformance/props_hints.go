package conformance

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
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
	name  string
	value string
	// want is the wait the code must make; curve means the Policy's
	// window of the first retry (at the Max source: its top), giveUp that
	// the code must end the call.
	want   time.Duration
	curve  bool
	giveUp bool
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
	d := c.hint(h.name, h.value, h.after-first)
	d.date, d.after = true, h.after
	return d
}

// hintStatus is the status the suite sends its Retry-After with.
func (c *config) hintStatus() int { return c.spec.ra.Statuses[0] }

// hintSeconds is a whole number of seconds the Spec honours as is.
func (c *config) hintSeconds() (time.Duration, bool) {
	lo := max(c.spec.ra.Min, time.Second)
	d := lo.Truncate(time.Second)
	if d < lo {
		d += time.Second
	}
	if d == time.Second && c.spec.ra.Max >= 7*time.Second && c.spec.ra.Min <= 7*time.Second {
		d = 7 * time.Second
	}
	return d, d <= c.spec.ra.Max
}

func (c *config) hint(name, value string, d time.Duration) hintCase {
	w, giveUp := c.spec.clampHint(d)
	return hintCase{name: name, value: value, want: w, giveUp: giveUp}
}

func secs(d time.Duration) string { return strconv.FormatInt(int64(d/time.Second), 10) }

// hintCases returns the cases of one property, for a call that begins at
// start.
func (c *config) hintCases(prop string, start time.Time) []hintCase {
	d, _ := c.hintSeconds()
	at := start.Add(d)
	switch prop {
	case "RetryAfterSeconds":
		return []hintCase{c.hint("seconds", secs(d), d)}
	case "RetryAfterHTTPDate":
		hs := []hintCase{
			c.hint("IMF-fixdate", retryafter.FormatHTTPDate(at, retryafter.IMFFixdate), d),
			c.hint("RFC 850 date", retryafter.FormatHTTPDate(at, retryafter.RFC850), d),
			c.hint("asctime date", retryafter.FormatHTTPDate(at, retryafter.Asctime), d),
		}
		for i := range hs {
			hs[i].date, hs[i].after = true, d
		}
		return hs
	case "RetryAfterClamped":
		over := c.spec.ra.Max + time.Hour
		return []hintCase{c.hint("above the ceiling", secs(over), over)}
	case "RetryAfterFloored":
		return []hintCase{c.hint("zero", "0", 0)}
	case "RetryAfterMalformed":
		return []hintCase{
			{name: "malformed", value: "soon", curve: true},
			{name: "empty", value: "", curve: true},
		}
	case "RetryAfterAbsurd":
		huge := c.hint("larger than a Duration holds", "9223372037", retryafter.Forever)
		return []hintCase{huge, {name: "negative", value: "-5", curve: true}, {name: "not-a-number", value: "NaN", curve: true}}
	}
	return nil
}

func skipHint(prop string) func(c *config) string {
	return func(c *config) string {
		switch {
		case c.spec.Hints == nil:
			return "the Spec says the code does not honour Retry-After"
		case c.spec.retries() == 0:
			return "the Policy makes one attempt: a hint has nothing to delay"
		}
		if d, ok := c.hintSeconds(); !ok {
			return fmt.Sprintf("no whole number of seconds from %s lies within [%s, %s]", schedfmt.Duration(d), schedfmt.Duration(c.spec.ra.Min), schedfmt.Duration(c.spec.ra.Max))
		}
		if prop == "RetryAfterFloored" && c.spec.ra.Min == 0 {
			return "the Spec declares no floor (Hints.Min is 0)"
		}
		return ""
	}
}

// hintAnswer is the reply that carries a case's Retry-After.
func (c *config) hintAnswer(h hintCase) answer {
	header := http.Header{}
	header.Set("Retry-After", h.value)
	if h.value == "" {
		header["Retry-After"] = []string{""}
	}
	return answer{status: c.hintStatus(), header: header}
}

// judgeHint says what is wrong with a wait of got (retried is false when
// the code gave up instead) for h, or "". base is the code's own wait after
// a transient failure without a hint, at the same source (baseOK false
// when it did not retry that either).
func (c *config) judgeHint(h hintCase, retried bool, got, base time.Duration, baseOK bool) string {
	w := c.spec.Policy.Window(1)
	switch {
	case h.cutBy > 0 && retried:
		return fmt.Sprintf("retried after %s, want the call to end at its %s Budget: the %s wait ends past it", schedfmt.Duration(got), schedfmt.Duration(h.cutBy), schedfmt.Duration(h.want))
	case h.cutBy > 0:
		return ""
	case h.giveUp && retried:
		return fmt.Sprintf("retried after %s, want to give up: the hint is above the %s ceiling", schedfmt.Duration(got), schedfmt.Duration(c.spec.ra.Max))
	case h.giveUp:
		return ""
	case !retried:
		return "gave up, want a retry"
	case h.curve && got == 0 && (!baseOK || base > 0):
		return fmt.Sprintf("retried at once, want the backoff's wait (%s): a hint that cannot be read must fall back to the backoff, never to zero", c.backoffWant(base, baseOK, w))
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
	return schedfmt.Status(c.transientStatus())
}

func hintProp(prop string) func(t tb, c *config) {
	return func(t tb, c *config) {
		base, baseOK := c.firstWait(t)
		for i := range c.hintCases(prop, fakeclock.Epoch) {
			start := fakeclock.Epoch // a fake clock's start
			if c.bubble {
				// The bubble's clock, as the next call begins, on a whole
				// second: an HTTP-date has no fraction.
				if frac := time.Duration(time.Now().Nanosecond()); frac > 0 {
					bubble.SleepAndWait(time.Second - frac)
				}
				start = time.Now()
			}
			h := c.hintCases(prop, start)[i]
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
				if b := c.spec.Budget; b > 0 && !h.curve && !h.giveUp && at[0]+h.want >= b {
					h.cutBy = b
				}
			}
			if why := c.judgeHint(h, retried, got, base, baseOK); why != "" {
				t.Errorf("%s Retry-After (%q) on %s: %s\n%s", h.name, h.value, schedfmt.Status(c.hintStatus()), why, cl.table())
			}
		}
	}
}

func retryableStatuses(t tb, c *config) {
	base, baseOK := c.firstWait(t)
	for _, s := range c.spec.Retryable {
		cl := c.run(t, seqrand.Max(), []answer{{status: s}, success})
		at := cl.attempts()
		if len(at) < 2 {
			t.Errorf("%s: not retried, want a retry: it is a Retryable status\n%s", schedfmt.Status(s), cl.table())
		} else if why := c.judgeBackoff(at[1]-at[0], base, baseOK); why != "" {
			t.Errorf("%s: %s\n%s", schedfmt.Status(s), why, cl.table())
		}
	}
}

// judgeBackoff says what is wrong with got, a wait that must be the
// backoff's, or "": base is the code's own wait after a transient
// failure at the same source.
func (c *config) judgeBackoff(got, base time.Duration, baseOK bool) string {
	w := c.spec.Policy.Window(1)
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

func connectionErrors(t tb, c *config) {
	base, baseOK := c.firstWait(t)
	for _, e := range []string{"reset", "timeout"} {
		cl := c.run(t, seqrand.Max(), []answer{{err: e}, success})
		at := cl.attempts()
		name := map[string]string{"reset": "a connection reset", "timeout": "an I/O timeout"}[e]
		if len(at) < 2 {
			t.Errorf("%s: not retried, want a retry\n%s", name, cl.table())
		} else if why := c.judgeBackoff(at[1]-at[0], base, baseOK); why != "" {
			t.Errorf("%s: %s\n%s", name, why, cl.table())
		}
	}
}

func skipOneAttempt(c *config) string {
	if c.spec.retries() == 0 {
		return "the Policy makes one attempt"
	}
	return ""
}

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
	if len(k2) > 0 && len(k1) > 0 && k2[0] == k1[0] {
		t.Errorf("two calls sent the same %s %q: each call needs a key of its own, or the server drops the second call as a duplicate", key, k1[0])
	}
}

func skipIdempotency(c *config) string {
	if c.spec.IdempotencyKey == "" {
		return "the Spec names no IdempotencyKey header"
	}
	return ""
}
