package conformance

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retrytest"
)

// The breaker lab: a circuit breaker written for these tests, on the
// suite's clock or the time package, with the retry loops it composes
// with, correct by default, each bug a one-line change switched on by
// name. Every bug is one a breaker has shipped with; each must fail the
// property the suite names for it, and no other.

var (
	errLabOpen     = errors.New("lab: circuit breaker is open")
	errLabHalfOpen = errors.New("lab: too many probes")
	errLabIgnored  = errors.New("lab: not found")
)

// labBreakerSpec is the contract the correct lab breaker meets: five
// consecutive failures open it for a minute, from which two probes go
// through and both must succeed to close it; 5xx and connection errors
// are failures, 400, 404 and a canceled call are not.
func labBreakerSpec() BreakerSpec {
	return BreakerSpec{
		Breaker:     retrytest.Breaker{Threshold: 5, OpenFor: time.Minute, Probes: 2},
		Err:         errLabOpen,
		HalfOpenErr: errLabHalfOpen,
		IgnoredErr:  errLabIgnored,
	}
}

// labBreaker is the lab's breaker.
type labBreaker struct {
	clk  clockwork.Clock // nil: the time package
	b    retrytest.Breaker
	bugs bugs

	mu         sync.Mutex
	phase      int // 0 closed, 1 open, 2 half-open
	generation int
	// closed: the counts since since
	since       time.Time
	firstFail   time.Time
	consecutive int
	recent      []bool // the last OutOf outcomes, true a failure
	calls       int
	fails       int
	// open
	openedAt time.Time
	openFor  time.Duration
	// half-open
	admitted, succ int
}

func newLabBreaker(clk clockwork.Clock, b retrytest.Breaker, bs bugs) *labBreaker {
	l := &labBreaker{clk: clk, b: b, bugs: bs, openFor: b.OpenFor}
	l.since = l.now()
	return l
}

func (l *labBreaker) now() time.Time {
	if l.clk == nil {
		return time.Now()
	}
	return l.clk.Now()
}

// current moves an open breaker to half-open once its time is up, and
// resets the counts of a closed one once its Interval is.
func (l *labBreaker) current(now time.Time) {
	switch l.phase {
	case 1:
		from := l.openedAt
		h := from.Add(l.openFor)
		if l.b.HalfOpensAfter || l.bugs["half-opens-late"] {
			h = h.Add(1)
		}
		if !now.Before(h) {
			l.phase, l.admitted, l.succ = 2, 0, 0
			l.generation++
		}
	case 0:
		if l.b.Interval > 0 && now.After(l.since.Add(l.b.Interval)) && !l.bugs["counts-never-reset"] {
			l.reset(now)
		}
	}
}

func (l *labBreaker) reset(now time.Time) {
	l.since, l.firstFail = now, time.Time{}
	l.consecutive, l.recent, l.calls, l.fails = 0, nil, 0, 0
}

// allow lets a call through, or refuses it with the breaker's error; it
// returns the generation the call's outcome belongs to.
func (l *labBreaker) allow() (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.current(l.now())
	switch l.phase {
	case 1:
		return 0, errLabOpen
	case 2:
		if l.admitted >= l.b.Probes && !l.bugs["probe-storm"] {
			return 0, errLabHalfOpen
		}
		l.admitted++
	}
	return l.generation, nil
}

// record counts a call's outcome: failed, or ignored, or a success.
func (l *labBreaker) record(gen int, failed, ignored bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.current(now)
	if gen != l.generation || ignored {
		return
	}
	switch l.phase {
	case 2:
		switch {
		case failed && !l.bugs["probe-failure-ignored"]:
			if g := l.b.OpenGrowth; g > 1 {
				l.openFor = time.Duration(float64(l.openFor) * g)
				if l.b.OpenMax > 0 {
					l.openFor = min(l.openFor, l.b.OpenMax)
				}
			}
			l.open(now)
		case failed:
			l.admitted-- // the permit comes back, as if nothing happened
		default:
			l.succ++
			need := l.b.ProbeSuccesses
			if need == 0 {
				need = l.b.Probes
			}
			if l.succ >= need {
				l.phase, l.openFor = 0, l.b.OpenFor
				l.generation++
				l.reset(now)
			}
		}
	case 0:
		l.calls++
		if failed {
			l.fails++
			l.consecutive++
			if l.firstFail.IsZero() {
				l.firstFail = now
			}
		} else if !l.bugs["counts-never-reset"] {
			l.consecutive = 0
		}
		if n := l.b.OutOf; n > 0 {
			l.recent = append(l.recent, failed)
			if len(l.recent) > n {
				l.recent = l.recent[1:]
			}
		}
		if failed && l.trips() {
			from := now
			if l.bugs["open-from-first-failure"] {
				from = l.firstFail
			}
			l.open(from)
		}
	}
}

func (l *labBreaker) trips() bool {
	b := l.b
	switch {
	case b.FailureRate > 0:
		min := max(b.MinCalls, 1)
		if l.bugs["rate-without-min-calls"] {
			min = 1
		}
		return l.calls >= min && float64(l.fails)/float64(l.calls) >= b.FailureRate
	case b.OutOf > 0 && l.bugs["ratio-never-slides"]:
		return l.fails >= b.Threshold // every failure since the reset
	case b.OutOf > 0 && !l.bugs["ratio-as-consecutive"]:
		n := 0
		for _, f := range l.recent {
			if f {
				n++
			}
		}
		return n >= b.Threshold
	}
	need := b.Threshold
	if l.bugs["trips-late"] {
		need++
	}
	return l.consecutive >= need
}

func (l *labBreaker) open(from time.Time) {
	l.phase, l.openedAt = 1, from
	l.generation++
}

// ignored reports whether the lab counts err as no outcome at all.
func (l *labBreaker) ignored(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, errLabIgnored) && !l.bugs["404-counted"]
}

// Do is the lab breaker around an operation.
func (l *labBreaker) Do(ctx context.Context, op func(context.Context) error) error {
	gen, err := l.allow()
	if err != nil {
		return err
	}
	err = op(ctx)
	l.record(gen, err != nil && !l.ignored(err), l.ignored(err))
	return err
}

// labBreakerRT is the lab breaker around a transport: 5xx and errors
// fail, 4xx are ignored.
type labBreakerRT struct {
	l    *labBreaker
	next http.RoundTripper
}

func (rt labBreakerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	gen, err := rt.l.allow()
	if err != nil {
		return nil, err
	}
	resp, err := rt.next.RoundTrip(req)
	switch {
	case err != nil:
		rt.l.record(gen, !rt.l.ignored(err), rt.l.ignored(err))
	case resp.StatusCode == 404 && rt.l.bugs["404-counted"]:
		rt.l.record(gen, true, false)
	case resp.StatusCode >= 500:
		rt.l.record(gen, true, false)
	case resp.StatusCode >= 400:
		rt.l.record(gen, false, true)
	default:
		rt.l.record(gen, false, false)
	}
	return resp, err
}

// labLoopPolicy is the lab's retry loop: 1s, then 2s, 3 attempts.
var labLoopPolicy = retrytest.Policy{First: time.Second, Growth: 2, Attempts: 3}

// labRetry is the lab's retry loop: it retries every error but a canceled
// context, after its backoff on clk; stop, when set, ends it at once on
// an error stop says so of.
type labRetry struct {
	clk  clockwork.Clock
	bugs bugs
	stop bool // the breaker's errors end the call
}

func (r labRetry) breakerErr(err error) bool {
	return errors.Is(err, errLabOpen) || errors.Is(err, errLabHalfOpen)
}

// wait is the wait before retry k (1 for the first), or none when the
// loop hammers the breaker's fast failure.
func (r labRetry) wait(ctx context.Context, k int, err error) error {
	d := labLoopPolicy.Ceiling(k)
	if r.bugs["hammering"] && r.breakerErr(err) {
		d = 0
	}
	return clockctx.Sleep(ctx, r.clk, d)
}

func (r labRetry) Do(ctx context.Context, op func(context.Context) error) error {
	var err error
	for k := 1; k <= labLoopPolicy.Attempts; k++ {
		if err = op(ctx); err == nil || ctx.Err() != nil || r.stop && r.breakerErr(err) || errors.Is(err, errLabIgnored) {
			return err
		}
		if k < labLoopPolicy.Attempts {
			if werr := r.wait(ctx, k, err); werr != nil {
				return werr
			}
		}
	}
	return err
}

// labRetryRT is the lab's retry loop around a transport: it retries
// errors and 5xx.
type labRetryRT struct {
	r    labRetry
	next http.RoundTripper
}

func (rt labRetryRT) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for k := 1; k <= labLoopPolicy.Attempts; k++ {
		resp, err = rt.next.RoundTrip(req.Clone(req.Context()))
		retry := err != nil && req.Context().Err() == nil && !(rt.r.stop && rt.r.breakerErr(err)) || err == nil && resp.StatusCode >= 500
		if !retry || k == labLoopPolicy.Attempts {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		if werr := rt.r.wait(req.Context(), k, err); werr != nil {
			return nil, werr
		}
	}
	return resp, err
}

// composition is how the lab composes its breaker with its retry loop.
type composition int

const (
	plain    composition = iota // the breaker alone
	inside                      // the breaker around the loop
	outside                     // the loop around the breaker
	outStops                    // the loop around the breaker, stopping on its error
)

// labLoop is what the Spec declares of a composition's loop.
func (cmp composition) loop() *BreakerLoop {
	switch cmp {
	case inside:
		return &BreakerLoop{Policy: labLoopPolicy}
	case outside:
		return &BreakerLoop{Policy: labLoopPolicy, Outside: true}
	case outStops:
		return &BreakerLoop{Policy: labLoopPolicy, Outside: true, StopsWhenOpen: true}
	}
	return nil
}

func (cmp composition) String() string {
	return [...]string{"plain", "inside", "outside", "outside-stops"}[cmp]
}

// labGuard builds the lab as a Guard over the suite's seams.
func labGuard(b retrytest.Breaker, cmp composition, bs bugs) func(Seams) Guard {
	return func(s Seams) Guard {
		l := newLabBreaker(s.Clock, b, bs)
		r := labRetry{clk: s.Clock, bugs: bs, stop: cmp == outStops}
		switch cmp {
		case inside:
			return func(ctx context.Context, op func(context.Context) error) error {
				return l.Do(ctx, func(ctx context.Context) error { return r.Do(ctx, op) })
			}
		case outside, outStops:
			return func(ctx context.Context, op func(context.Context) error) error {
				return r.Do(ctx, func(ctx context.Context) error { return l.Do(ctx, op) })
			}
		}
		return l.Do
	}
}

// labClient builds the lab as an HTTP client over the suite's seams.
func labClient(b retrytest.Breaker, cmp composition, bs bugs) func(Seams) Do {
	return func(s Seams) Do {
		l := newLabBreaker(s.Clock, b, bs)
		r := labRetry{clk: s.Clock, bugs: bs, stop: cmp == outStops}
		var rt http.RoundTripper
		switch cmp {
		case inside:
			rt = labBreakerRT{l, labRetryRT{r, s.Transport}}
		case outside, outStops:
			rt = labRetryRT{r, labBreakerRT{l, s.Transport}}
		default:
			rt = labBreakerRT{l, s.Transport}
		}
		return (&http.Client{Transport: rt}).Do
	}
}
