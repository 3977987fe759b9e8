package conformance

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
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
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// The lab is retry code written for these tests: a loop, a client and a
// pure policy, correct by default, each bug a one-line change switched on
// by name. Every bug is one that shipped somewhere; each must fail the
// property the suite names for it.

// errPermanent is the lab's permanent error.
var errPermanent = errors.New("lab: permanent")

// marker is a library's mark on a permanent error, as backoff.Permanent
// wraps one.
type marker struct{ err error }

func (m *marker) Error() string { return "permanent: " + m.err.Error() }
func (m *marker) Unwrap() error { return m.err }

// labPolicy is the backoff the lab implements and the Spec declares: 100ms
// doubling to a 400ms cap, full jitter, 6 attempts (the last three waits
// at the cap).
var labPolicy = retrytest.Policy{First: 100 * time.Millisecond, Cap: 400 * time.Millisecond, Jitter: retrytest.FullJitter, Attempts: 6}

// labSpec is the contract the correct lab meets.
func labSpec() Spec {
	return Spec{
		Policy:         labPolicy,
		Hints:          &Hints{Min: 50 * time.Millisecond, Max: 10 * time.Second},
		PermanentErr:   &marker{errPermanent}, // as a library marks it
		IdempotencyKey: "Idempotency-Key",
	}
}

// bugs are the lab's planted bugs, by name.
type bugs map[string]bool

// lab is the retry code under test, built over the suite's seams.
type lab struct {
	// clk nil: the lab calls the time package itself (time.Sleep,
	// time.After), which the suite runs only inside a testing/synctest
	// bubble (RunInBubble), where those waits take no real time.
	clk  clockwork.Clock
	rng  *rand.Rand
	bugs bugs
	pol  retrytest.Policy

	budget time.Duration // the MaxElapsedTime of a call; 0 for none
	// attemptTimeout cuts an attempt that takes longer; 0 for none
	attemptTimeout time.Duration
	// abandons leaves a cut attempt to end on its own, instead of ending
	// its context and waiting for it
	abandons bool
	// limit, when set, is a rate limiter shared by every call of the lab:
	// a token bucket every attempt waits on
	limit *labLimit
	// sleep, when set, is the lab's only seam for waiting
	sleep func(ctx context.Context, d time.Duration) error

	shared atomic.Int64 // the attempt counter of the "state-not-reset" bug
	keys   atomic.Int64 // idempotency keys handed out
	tr     http.RoundTripper
}

func newLab(s Seams, b bugs) *lab {
	l := &lab{clk: s.Clock, rng: rngOf(s), bugs: b, pol: labPolicy, tr: s.Transport}
	if b["cap-in-wrong-unit"] {
		l.pol.Cap = time.Millisecond // meant a second
	}
	if b["attempts-counted-as-retries"] {
		l.pol.Attempts++
	}
	return l
}

// backoff is the wait before retry k (1 for the first retry).
func (l *lab) backoff(k int) time.Duration {
	exp := k - 1
	if l.bugs["exponent-off-by-one"] {
		exp = k
	}
	if l.bugs["exponent-early"] {
		exp = k - 2
	}
	if l.bugs["retry-counter-kept"] {
		exp = int(l.shared.Add(1)) - 1
	}
	ceil := float64(l.pol.First) * math.Pow(2, float64(exp))
	r := l.rng.Float64()
	if l.bugs["global-rand"] {
		r = rand.Float64()
	}
	if l.bugs["half-jitter"] {
		r = 0.5 + r/2 // the upper half of the window only
	}
	if l.bugs["cap-after-jitter"] {
		// the jitter drawn over the uncapped ceiling, then capped: most
		// late waits land on the cap itself
		return min(time.Duration(r*ceil), l.pol.Cap)
	}
	capd := float64(l.pol.Cap)
	switch {
	case l.bugs["unit-x1000"]: // milliseconds read as seconds
		ceil, capd = ceil*1000, capd*1000
	case l.bugs["unit-div1000"]: // seconds read as milliseconds
		ceil, capd = ceil/1000, capd/1000
	case l.bugs["cap-on-exponent"]: // the exponent capped at 1, as if the cap were 1
		ceil = float64(l.pol.First) * math.Pow(2, float64(min(exp, 1)))
	}
	ceil = min(ceil, capd)
	if l.bugs["no-jitter"] {
		return time.Duration(ceil)
	}
	return time.Duration(r * ceil)
}

// wait waits d on the lab's clock, or until ctx ends.
func (l *lab) wait(ctx context.Context, d time.Duration) error {
	switch {
	case l.bugs["wait-ignores-ctx"]:
		if l.clk == nil {
			time.Sleep(d)
		} else {
			l.clk.Sleep(d)
		}
		return nil
	case l.bugs["after-abandoned"]:
		// Not a bug: an After whose channel nothing waits on any more is
		// garbage, timer and all.
		var ch <-chan time.Time
		if l.clk == nil {
			ch = time.After(d)
		} else {
			ch = l.clk.After(d)
		}
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	case l.bugs["real-timer"] && l.clk != nil:
		// The suite's clock handed in, and a real timer used.
		select {
		case <-time.After(d):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	case l.bugs["timer-not-stopped"]:
		var ch <-chan time.Time
		if l.clk == nil {
			ch = time.NewTimer(d).C
		} else {
			ch = l.clk.NewTimer(d).Chan()
		}
		select {
		case <-ch:
			return nil
		case <-ctx.Done():
			return ctx.Err() // the timer runs on
		}
	}
	if dl, ok := ctx.Deadline(); ok && l.bugs["gives-up-early"] && l.now().Add(d).After(dl) {
		return context.DeadlineExceeded // while the Spec says it waits for the deadline
	}
	if l.sleep != nil {
		return l.sleep(ctx, d)
	}
	return clockctx.Sleep(ctx, l.clk, d)
}

// Do is the lab's loop.
func (l *lab) Do(ctx context.Context, op func(context.Context) error) (err error) {
	if l.bugs["success-timer-left"] && l.clk != nil {
		// A timer armed for the call, stopped only when the call fails.
		tm := l.clk.NewTimer(time.Hour)
		defer func() {
			if err != nil {
				tm.Stop()
			}
		}()
	}
	if l.budget > 0 && !l.bugs["budget-ignored"] {
		var cancel context.CancelFunc
		ctx, cancel = clockctx.WithTimeout(ctx, l.clk, l.budget)
		defer cancel()
	}
	if l.bugs["wait-before-first"] {
		if err := l.wait(ctx, l.backoff(1)); err != nil {
			return err
		}
	}
	for k := 1; ; k++ {
		if err := l.acquire(ctx, k); err != nil {
			return err
		}
		_, err := attempt(l, ctx, func(actx context.Context) (struct{}, error) { return struct{}{}, op(actx) })
		if errors.Is(err, errAttemptTimedOut) && l.bugs["timeout-ends-call"] {
			return err
		}
		if err == nil || errors.Is(err, errPermanent) && !l.bugs["permanent-retried"] {
			var m *marker
			switch {
			case errors.As(err, &m) && l.bugs["permanent-unwrapped"]:
				return m.err // as backoff.Permanent and retry.Unrecoverable do
			case err != nil && l.bugs["permanent-replaced"]:
				return errors.New("lab: gave up")
			}
			return err
		}
		last := l.pol.Attempts > 0 && k >= l.pol.Attempts || l.bugs["never-retries"]
		if last && !l.bugs["wait-after-last"] {
			return err
		}
		if err := l.wait(ctx, l.backoff(k)); err != nil {
			return err
		}
		if last {
			return err
		}
	}
}

// RoundTrip is the lab's client: its transport retries.
func (l *lab) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if l.budget > 0 && !l.bugs["budget-ignored"] {
		var cancel context.CancelFunc
		ctx, cancel = clockctx.WithTimeout(ctx, l.clk, l.budget)
		defer cancel()
	}
	key := strconv.FormatInt(l.keys.Add(1), 10)
	body, _ := io.ReadAll(req.Body)
	if l.bugs["wait-before-first"] {
		if err := l.wait(ctx, l.backoff(1)); err != nil {
			return nil, err
		}
	}
	for k := 1; ; k++ {
		r := req.Clone(ctx)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if l.bugs["key-per-attempt"] {
			key = strconv.FormatInt(l.keys.Add(1), 10)
		}
		if l.bugs["headers-dropped"] {
			r.Header = http.Header{}
		}
		if l.bugs["request-rebuilt"] {
			r = r.WithContext(context.Background())
			r.Header = http.Header{}
		}
		if !l.bugs["key-dropped"] {
			r.Header.Set("Idempotency-Key", key)
		}
		if err := l.acquire(ctx, k); err != nil {
			return nil, err
		}
		// The response comes back through attempt, never through a
		// variable the closure writes: a cut attempt's goroutine still
		// runs, and would write it while this loop reads it.
		resp, err := attempt(l, ctx, func(actx context.Context) (*http.Response, error) {
			rr := r
			if l.attemptTimeout > 0 {
				rr = r.WithContext(actx)
			}
			return l.tr.RoundTrip(rr)
		})
		if errors.Is(err, errAttemptTimedOut) && l.bugs["timeout-ends-call"] {
			return nil, err
		}
		retry := err != nil && !l.bugs["conn-error-not-retried"] && ctx.Err() == nil
		if err == nil {
			retry = l.retryable(resp.StatusCode)
			if l.bugs["reads-body"] {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				resp.Body = io.NopCloser(bytes.NewReader(b))
				retry = l.bodyVerdict(resp.StatusCode, string(b))
			}
		}
		last := l.pol.Attempts > 0 && k >= l.pol.Attempts || l.bugs["never-retries"]
		if last && retry && l.bugs["wait-after-last"] {
			if err := l.wait(ctx, l.backoff(k)); err != nil {
				return nil, err
			}
		}
		if !retry || last {
			return resp, err
		}
		d := l.backoff(k)
		if resp != nil {
			hint, giveUp := l.hint(resp, l.now(), d)
			if !l.bugs["body-left-open"] {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if giveUp {
				return nil, errors.New("lab: the server asks for a wait above the ceiling")
			}
			d = hint
		}
		if err := l.wait(ctx, d); err != nil {
			return nil, err
		}
	}
}

func (l *lab) retryable(status int) bool {
	if l.bugs["statuses-not-retried"] {
		return false // a client that retries connection errors only
	}
	codes := []int{408, 429, 500, 502, 503, 504}
	if l.bugs["429-not-retried"] {
		codes = slices.DeleteFunc(codes, func(c int) bool { return c == 429 })
	}
	if l.bugs["408-not-retried"] {
		codes = slices.DeleteFunc(codes, func(c int) bool { return c == 408 })
	}
	if l.bugs["404-retried"] {
		codes = append(codes, 404)
	}
	return slices.Contains(codes, status)
}

// errAttemptTimedOut is the error of an attempt the lab cut at its
// timeout.
var errAttemptTimedOut = errors.New("lab: attempt timed out")

// attempt runs op, cut at the lab's attemptTimeout when it has one: by
// its context, waiting for it to return, or, when the lab abandons cut
// attempts, on a goroutine of its own whose result is sent on a buffered
// channel, so that a cut attempt ends when it returns (the bug
// "timeout-leaks" sends on an unbuffered one, which blocks for ever). The
// bugs "abandons" and "waits-for-cut" do the other of the two.
func attempt[T any](l *lab, ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	if l.attemptTimeout == 0 || l.bugs["timeout-ignored"] {
		return op(ctx)
	}
	actx, cancel := clockctx.WithTimeout(ctx, l.clk, l.attemptTimeout)
	defer cancel()
	if l.abandons == l.bugs["waits-for-cut"] && !l.bugs["abandons"] {
		// The attempt's context alone cuts it, as a client on
		// http.Client cuts a request: the attempt ends when it returns.
		v, err := op(actx)
		if err != nil && actx.Err() != nil && ctx.Err() == nil {
			return v, errAttemptTimedOut
		}
		return v, err
	}
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	if l.bugs["timeout-leaks"] {
		ch = make(chan result)
	}
	go func() {
		v, err := op(actx)
		ch <- result{v, err}
	}()
	var zero T
	select {
	case r := <-ch:
		return r.v, r.err
	case <-actx.Done():
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		return zero, errAttemptTimedOut
	}
}

// bodyVerdict is the verdict of a client that reads the body's retry flag
// first, and the status when there is none.
func (l *lab) bodyVerdict(status int, body string) bool {
	switch {
	case strings.Contains(body, `"retry":false`):
		return false
	case strings.Contains(body, `"retry":true`):
		return true
	}
	return l.retryable(status)
}

// hint is the wait a response asks for, when it asks; otherwise backoff.
func (l *lab) hint(resp *http.Response, now time.Time, backoff time.Duration) (time.Duration, bool) {
	if resp.StatusCode != 429 && resp.StatusCode != 503 {
		return backoff, false
	}
	if l.bugs["reads-ms-fields"] {
		// A client that reads Retry-After-Ms and X-Ms-Retry-After-Ms
		// before Retry-After, as retryafter.FromResponse does.
		h, err := retryafter.FromResponse(resp, now)
		switch {
		case err != nil:
			return backoff, false
		case l.bugs["ms-read-as-seconds"] && strings.HasSuffix(strings.ToLower(h.Field), "-ms"):
			h.Delay *= 1000
		}
		if l.bugs["ms-after-seconds"] && h.Field != "Retry-After" && resp.Header.Get("Retry-After") != "" {
			h.Delay, _ = retryafter.Parse(resp.Header.Get("Retry-After"), now)
		}
		return min(max(h.Delay, 50*time.Millisecond), 10*time.Second), false
	}
	v := resp.Header.Get("Retry-After")
	if v == "" {
		if resp.StatusCode == 429 && l.bugs["429-at-once"] {
			return 0, false
		}
		return backoff, false
	}
	if l.bugs["hint-ignored"] {
		return backoff, false
	}
	var d time.Duration
	var err error
	if l.bugs["parse-float"] {
		var f float64
		f, err = strconv.ParseFloat(v, 64)
		d = time.Duration(f * float64(time.Second))
	} else if l.bugs["seconds-only"] {
		var n int
		n, err = strconv.Atoi(v)
		d = time.Duration(n) * time.Second
	} else if t, perr := time.Parse(time.RFC1123, v); l.bugs["rfc1123-any-zone"] && perr == nil {
		// Any zone abbreviation, and one time.Local does not define
		// read as GMT (go-retryablehttp, openai-go).
		d, err = max(t.Sub(now), 0), nil
	} else {
		d, err = retryafter.Parse(v, now)
	}
	// A date has a time of day; RFC 850's has dashes, asctime's no zone.
	date := strings.Contains(v, ":")
	if l.bugs["imf-only"] && date && (strings.Contains(v, "-") || !strings.HasSuffix(v, "GMT")) {
		err = errors.New("lab: only IMF-fixdate read") // RFC 850 and asctime taken for malformed
	}
	if l.bugs["rfc850-not-read"] && date && strings.Contains(v, "-") {
		err = errors.New("lab: RFC 850 date not read")
	}
	if err == nil && d == 0 && l.bugs["zero-is-backoff"] {
		return backoff, false // 0 or a past date: no hint (azcore)
	}
	switch {
	case err != nil && l.bugs["malformed-is-zero"]:
		return 0, false
	case err != nil:
		return backoff, false
	case l.bugs["hint-added"]:
		d += backoff
	}
	if !l.bugs["hint-unclamped"] {
		d = min(d, 10*time.Second)
	}
	if !l.bugs["hint-unfloored"] {
		d = max(d, 50*time.Millisecond)
	}
	return d, false
}

func (l *lab) now() time.Time {
	if l.clk == nil {
		return time.Now()
	}
	return l.clk.Now()
}

// Decide is the lab as a pure policy.
func (l *lab) Decide(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	l.rng = rng
	if o.Err != nil && errors.Is(o.Err, errPermanent) && !l.bugs["permanent-retried"] {
		return retrytest.Decision{Reason: "permanent"}
	}
	if o.Status != 0 && l.bugs["reads-body"] && !l.bodyVerdict(o.Status, o.Body) || o.Status != 0 && !l.bugs["reads-body"] && !l.retryable(o.Status) {
		return retrytest.Decision{Reason: "permanent"}
	}
	if o.Err != nil && o.Status == 0 && l.bugs["conn-error-not-retried"] && !errors.Is(o.Err, errPermanent) {
		return retrytest.Decision{Reason: "error"}
	}
	if failed+1 >= l.pol.Attempts || l.bugs["never-retries"] {
		return retrytest.Decision{Reason: "exhausted"}
	}
	d := l.backoff(failed + 1)
	if o.Status != 0 {
		d, _ = l.hint(o.Response(), o.Now, d)
	}
	return retrytest.Decision{Retry: true, Delay: d, Reason: "backoff"}
}

// rngOf is the lab's draws from the suite's source; nil for a policy,
// which gets its rng per decision.
func rngOf(s Seams) *rand.Rand {
	if s.Rand == nil {
		return nil
	}
	return rand.New(s.Rand)
}

// labLimit is a token bucket of burst calls, one more every every, full
// at the start (the generic cell rate algorithm), that a call's first
// attempt takes a token from; with the bug "limit-every-attempt", every
// attempt does.
type labLimit struct {
	every time.Duration
	burst int
	mu    sync.Mutex
	tat   time.Time // zero: no attempt yet
}

// acquire waits, on the lab's clock, until the lab's limiter has a token
// for attempt k of a call, and takes it.
func (l *lab) acquire(ctx context.Context, k int) error {
	if l.limit == nil || k > 1 && !l.bugs["limit-every-attempt"] {
		return nil
	}
	lim := l.limit
	lim.mu.Lock()
	now := l.now()
	at := now
	if !lim.tat.IsZero() {
		if t := lim.tat.Add(-time.Duration(lim.burst-1) * lim.every); t.After(at) {
			at = t
		}
	}
	base := lim.tat
	if base.IsZero() || at.After(base) {
		base = at
	}
	lim.tat = base.Add(lim.every)
	lim.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return l.wait(ctx, d)
	}
	return nil
}
