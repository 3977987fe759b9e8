package retryafter

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// DefaultMax is the ceiling of a [Limits] whose Max is 0. Five minutes
// covers Discord's 65 s, GitHub's one-minute secondary limits and
// per-minute windows, and keeps a provider's "86400" from hanging a
// service for a day.
const DefaultMax = 5 * time.Minute

// ExceedAction says what a [Limits] does with a hint above its Max.
type ExceedAction int

const (
	// Clamp waits Max instead. It is the default.
	Clamp ExceedAction = iota
	// GiveUp reports [Wait.GiveUp], so the caller stops retrying and
	// surfaces the error instead of retrying before the server is ready
	// (OpenAI's Python SDK and Azure's azcore do this above their caps).
	GiveUp
)

// Limits turns what a response says into the delay before the next
// attempt: the server's hint, bounded by Min and Max, or the caller's own
// backoff when there is no usable hint. A malformed, empty or missing hint
// never yields 0: the fallback is used, and it is always positive.
//
// The zero Limits is ready to use: Min 0, Max [DefaultMax], Clamp,
// [DefaultFallback], standard fields only.
//
// Apply and ApplyHint panic if Min or Max is negative, if Min is above
// the effective Max, or if OnExceed is unknown: those are programming
// errors.
type Limits struct {
	// Min is the shortest delay: a hint of 0, or a date already past, is
	// raised to Min. 0 lets such a hint through, which RFC 9110 allows;
	// bound the retry loop by attempts or time, or set Min (100ms or more
	// is a sensible production floor) or AtLeastBackoff.
	Min time.Duration
	// Max is the longest delay; 0 means DefaultMax. What happens to a
	// longer hint is OnExceed's choice.
	Max time.Duration
	// OnExceed says what to do with a hint above Max: Clamp or GiveUp.
	OnExceed ExceedAction
	// Fallback computes the caller's own backoff for the 1-based attempt
	// whose response is being read. It is used whenever there is no usable
	// hint, and also with AtLeastBackoff. nil means DefaultFallback; a
	// result of 0 or less is replaced by DefaultFallback's.
	Fallback func(attempt int) time.Duration
	// AtLeastBackoff waits the longer of the hint and the backoff, as
	// AWS's 2026 retry behaviour and old stripe-node do, so that a stale
	// date or a "0" never produces an immediate burst.
	AtLeastBackoff bool
	// Options are passed to FromResponse by Apply: providers, status gate,
	// Date header, strictness.
	Options []Option
}

// DefaultFallback is the backoff a [Limits] without a Fallback uses:
// 1s, 2s, 4s, 8s, 16s, then 30s for every later attempt (an attempt below
// 1 counts as 1). It has no jitter, so that Apply stays a pure function;
// production code should pass its own jittered backoff.
func DefaultFallback(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	if attempt > 5 {
		return 30 * time.Second
	}
	return time.Second << (attempt - 1)
}

// Origin says where a [Wait]'s delay came from.
type Origin int

const (
	// OriginHint is the server's hint.
	OriginHint Origin = iota + 1
	// OriginBackoff is the policy's Fallback: there was no usable hint, or
	// AtLeastBackoff found the backoff longer.
	OriginBackoff
)

// String returns "hint" or "backoff".
func (s Origin) String() string {
	switch s {
	case OriginHint:
		return "hint"
	case OriginBackoff:
		return "backoff"
	}
	return fmt.Sprintf("Origin(%d)", int(s))
}

// Wait is a [Limits]'s answer, with what it was based on.
type Wait struct {
	// Delay is the wait before the next attempt. It is always within
	// [Min, Max], and always above 0 when Err is not nil. When GiveUp is
	// set it is Max, so a caller that ignores GiveUp still waits no longer
	// than Max.
	Delay time.Duration
	// Origin says whether Delay came from the hint or the backoff.
	Origin Origin
	// Hint is the server's hint; nil when there was none.
	Hint *Hint
	// Err says why there was no usable hint: it wraps ErrEmpty,
	// ErrMalformed or ErrNoHint. It is nil when Hint is set.
	Err error
	// Backoff is what Fallback returned, when it was consulted (no usable
	// hint, or AtLeastBackoff); 0 otherwise.
	Backoff time.Duration
	// Clamped reports that Delay was cut down to Max.
	Clamped bool
	// Floored reports that Delay was raised to Min.
	Floored bool
	// GiveUp reports a hint above Max under the GiveUp action: stop
	// retrying.
	GiveUp bool
	// Unusable holds the errors of the sources that were present but
	// unusable, in the order they were tried (only from Apply).
	Unusable []error
}

// String describes the decision on one line, for logs and failure
// messages, for example
// `wait 5m, clamped to Max: Retry-After: "86400" (seconds) = 24h`.
func (d Wait) String() string {
	var b strings.Builder
	if d.GiveUp && d.Hint != nil {
		fmt.Fprintf(&b, "give up: %v is above Max %s", *d.Hint, schedfmt.Duration(d.Delay))
		return b.String()
	}
	b.WriteString("wait " + schedfmt.Duration(d.Delay))
	switch {
	case d.Clamped:
		b.WriteString(", clamped to Max")
	case d.Floored:
		b.WriteString(", floored to Min")
	}
	switch {
	case d.Err != nil:
		fmt.Fprintf(&b, ": backoff %s, no usable hint: %s", schedfmt.Duration(d.Backoff), stripPrefix(d.Err))
	case d.Hint == nil:
	case d.Origin == OriginBackoff:
		fmt.Fprintf(&b, ": backoff %s, longer than %v", schedfmt.Duration(d.Backoff), *d.Hint)
	default:
		fmt.Fprintf(&b, ": %v", *d.Hint)
	}
	if d.Err == nil {
		// With an error, its text already lists what was skipped.
		writeSkipped(&b, d.Unusable)
	}
	return b.String()
}

// Apply reads resp with [FromResponse] (measured from now, the instant it
// was received, with p.Options) and returns the delay before the next
// attempt. attempt is the 1-based number of the attempt that got resp; it
// is passed to Fallback. A nil resp, a status outside the gate, or no
// usable hint all lead to the fallback.
func (p Limits) Apply(resp *http.Response, now time.Time, attempt int) Wait {
	o := buildOptions(p.Options)
	h, skipped, err := readResponse(resp, now, &o)
	d := p.ApplyHint(h, err, attempt)
	d.Unusable = skipped
	return d
}

// ApplyHint applies the policy to a hint read some other way: from
// [Parse], [ParseField], [ParseProtoDuration] or a response body. When err
// is not nil the hint is ignored and the fallback is used.
func (p Limits) ApplyHint(h Hint, err error, attempt int) Wait {
	lo, hi := p.bounds()
	if err != nil {
		d := Wait{Origin: OriginBackoff, Err: err, Backoff: p.backoff(attempt)}
		d.Delay, d.Clamped, d.Floored = clamp(d.Backoff, lo, hi)
		return d
	}
	h.Delay = max(h.Delay, 0) // a hand-made Hint may be negative
	d := Wait{Origin: OriginHint, Hint: &h}
	want := h.Delay
	if p.AtLeastBackoff {
		d.Backoff = p.backoff(attempt)
		if d.Backoff > want {
			want, d.Origin = d.Backoff, OriginBackoff
		}
	}
	if h.Delay > hi && p.OnExceed == GiveUp {
		d.Delay, d.GiveUp = hi, true
		return d
	}
	d.Delay, d.Clamped, d.Floored = clamp(want, lo, hi)
	return d
}

func (p Limits) backoff(attempt int) time.Duration {
	if p.Fallback != nil {
		if b := p.Fallback(attempt); b > 0 {
			return b
		}
	}
	return DefaultFallback(attempt)
}

// bounds returns the effective [Min, Max], panicking on a bad policy.
func (p Limits) bounds() (lo, hi time.Duration) {
	lo, hi = p.Min, p.Max
	if hi == 0 {
		hi = DefaultMax
	}
	switch {
	case lo < 0:
		panic("retryafter: Limits: negative Min " + schedfmt.Duration(lo) + ", want Min >= 0")
	case hi < 0:
		panic("retryafter: Limits: negative Max " + schedfmt.Duration(hi) + ", want Max >= 0 (0 means DefaultMax, " + schedfmt.Duration(DefaultMax) + ")")
	case lo > hi:
		maxText := schedfmt.Duration(hi)
		if p.Max == 0 {
			maxText += " (DefaultMax, as Max is 0)"
		}
		panic("retryafter: Limits: Min " + schedfmt.Duration(lo) + " above Max " + maxText + ", want Min <= Max")
	case p.OnExceed != Clamp && p.OnExceed != GiveUp:
		panic(fmt.Sprintf("retryafter: Limits: unknown OnExceed %d, want Clamp or GiveUp", int(p.OnExceed)))
	}
	return lo, hi
}

func clamp(d, lo, hi time.Duration) (v time.Duration, clamped, floored bool) {
	switch {
	case d > hi:
		return hi, true, false
	case d < lo:
		return lo, false, true
	}
	return d, false, false
}
