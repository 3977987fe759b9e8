package fakeclock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/internal/epoch"
	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

var (
	_ clockwork.Clock        = (*Clock)(nil)
	_ clockctx.DeadlineClock = (*Clock)(nil)
)

// Epoch is the instant every Clock starts at unless [WithTime] picks another:
// 2000-01-01T00:00:00Z, the instant a testing/synctest bubble starts at.
var Epoch = epoch.Time

// FixtureT is the t of a fixture: the part of [testing.TB] that a Clock,
// and httpscript's Transport, use. A fixture registers its leak check with
// Cleanup, logs with Logf, reports leaks and misuse with Errorf, and stops
// the test with Fatalf when a [Clock.Step] fails. *testing.T, *testing.B,
// *testing.F, ginkgo.GinkgoT(), *rapid.T and retrytest.ExampleT satisfy it.
//
// Every Assert of retrykit takes retrytest.TestingT (Helper, Errorf,
// FailNow), which FixtureT includes, so the t of a fixture serves every
// Assert too. The converse does not hold, which is why a fixture has an
// interface of its own: testify's CollectT, the t of EventuallyWithT, has
// no Cleanup, and a fixture needs one to check for leaks when the test
// ends.
type FixtureT interface {
	Helper()
	Cleanup(func())
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	FailNow()
}

// Clock is a fake [clockwork.Clock] whose time moves only when the test says
// so. See the package documentation for how to advance it and what
// "settled" means.
//
// Its timers, tickers and AfterFunc follow Go 1.23 semantics, checked by
// differential tests against the time package: Stop and Reset return what
// the runtime returns and leave no stale value to receive, a ticker drops
// ticks for a slow receiver and stays on its schedule, AfterFunc runs f in
// its own goroutine, zero and negative durations fire at once, and timers
// due at the same instant fire in the order they were armed. No user code
// and no blocking send runs under the clock's lock, so callbacks may call
// any method of the clock.
//
// A Clock is safe for concurrent use: the code under test may call it from
// any goroutine. The three advancing methods (Advance, Step and
// AdvanceAndDrain) must not run concurrently with each other; a second
// advance started while one is in progress is reported as an error.
type Clock struct {
	t     FixtureT
	opts  options
	start time.Time

	mu     sync.Mutex
	now    time.Time
	timers timerHeap
	seq    uint64
	waits  waitLog
	counts Counters
	closed bool
	// verified records that VerifyIdle reported leaks, which the check at
	// cleanup then does not report again.
	verified bool
	// changed, made by a WaitForTimers that waits, is closed and cleared
	// when a timer is armed, so that WaitForTimers can wait without
	// polling.
	changed chan struct{}
	// cbStarting counts AfterFunc goroutines started but not yet running,
	// which a custom settle waits for.
	cbStarting int
	// zeroFired counts zero-delay timers fired at once during the current
	// advance.
	zeroFired int

	advancing atomic.Bool
	// advances counts the advances begun, for the watchdog; it grows
	// under mu, so that an arm tells an advance that began before its
	// timer was pending from one that began after.
	advances atomic.Uint64
	settle   settler
	wd       watchdog
	// maker is the goroutine that made the clock.
	maker int64
}

// New returns a Clock at [Epoch] (or the time given by [WithTime]) for the
// test t. It registers a t.Cleanup that settles the code under test, fails t
// if a timer, ticker, AfterFunc, context deadline or sleeping goroutine is
// still pending on the clock, or an After a goroutine of the test waits on
// (an After nobody waits on is logged, never failed: see the package
// documentation; [WithoutLeakCheck] turns the check off), and then calls
// [Clock.Close].
//
// Make the clock wherever the test makes its fixtures — the test's
// goroutine, a Ginkgo BeforeEach, a testify SetupTest — or inside the
// synctest bubble that runs the test: inside a bubble it settles with
// synctest.Wait and must be advanced from that bubble.
func New(t FixtureT, opts ...Option) *Clock {
	t.Helper()
	o := buildOptions(opts)
	c := &Clock{
		t:     t,
		opts:  o,
		start: o.start,
		now:   o.start,
	}
	c.settle = newSettler(c)
	c.maker, _ = goheader.Current()
	t.Cleanup(c.cleanup)
	return c
}

// Now returns the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Since returns the time elapsed on the clock since t.
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Until returns the duration until t on the clock.
func (c *Clock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// Sleep blocks until d has passed on the clock (or the clock is closed). A
// zero or negative d returns at once.
//
//go:noinline
func (c *Clock) Sleep(d time.Duration) {
	// Not inlined: a goroutine dump then shows the clock Sleep waits on,
	// its receiver, which WaitingElsewhere compares with its own clock.
	// Close wakes a pending sleep, and a closed clock fires one at once.
	<-c.arm(&timer{kind: KindSleep, wake: make(chan struct{}, 1)}, d, callerFrame()).wake
}

// SleepContext blocks until d has passed on the clock or ctx ends, and
// returns ctx's error in the latter case: the func(context.Context,
// time.Duration) error seam a retry loop takes, as
// [github.com/retrykit/retrykit/clockctx].Sleep(ctx, c, d) is for any clock.
func (c *Clock) SleepContext(ctx context.Context, d time.Duration) error {
	return clockctx.Sleep(ctx, c, d)
}

// After returns a channel that receives the clock's time once d has passed
// on it, like [time.After].
//
// As with the time package since Go 1.23, the clock does not keep the
// channel alive: once nothing references it (the select that waited on it
// has returned another way), the garbage collector reclaims it, and the
// leak check at the end of the test does not count it (see the package
// documentation).
func (c *Clock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.arm(&timer{kind: KindAfter, weak: makeWeakChan(ch)}, d, callerFrame())
	return ch
}

// NewTimer returns a timer that sends the clock's time on its channel once d
// has passed, like [time.NewTimer]. A zero or negative d fires at once. Stop
// and Reset follow Go 1.23 semantics: after either returns, no stale value
// is received.
func (c *Clock) NewTimer(d time.Duration) clockwork.Timer {
	return c.arm(&timer{kind: KindTimer, ch: make(chan time.Time, 1)}, d, callerFrame())
}

// AfterFunc waits for d to pass on the clock and then calls f in its own
// goroutine, like [time.AfterFunc]. The returned timer's Chan is nil; its
// Reset schedules f to run again. While f runs, Now reports the instant it
// was due (when the clock is advanced with AdvanceAndDrain).
func (c *Clock) AfterFunc(d time.Duration, f func()) clockwork.Timer {
	return c.arm(&timer{kind: KindAfterFunc, f: f}, d, callerFrame())
}

// NewTicker returns a ticker that sends the clock's time every d, like
// [time.NewTicker]: it drops ticks for a slow receiver and stays on its
// schedule. It panics if d is not positive.
func (c *Clock) NewTicker(d time.Duration) clockwork.Ticker {
	if d <= 0 {
		panic("fakeclock: NewTicker: non-positive interval " + schedfmt.Duration(d))
	}
	return &ticker{t: c.arm(&timer{kind: KindTicker, ch: make(chan time.Time, 1), period: d}, d, callerFrame())}
}

// arm registers the new timer t, armed at s (callerFrame of arm's caller),
// and schedules it d from now. The watchdog is told of the wait with the count
// of advances taken under the lock that makes t pending: an advance that
// begins once t can be fired, even before watch runs, counts as one since
// the wait began.
func (c *Clock) arm(t *timer, d time.Duration, s site) *timer {
	if !s.whole() {
		s = callers(1)
	}
	t.c, t.idx, t.site = c, -1, s
	c.mu.Lock()
	seen := c.advances.Load()
	action := c.armLocked(t, d, true)
	c.mu.Unlock()
	run(action)
	if f := onArmed.Load(); f != nil {
		(*f)(c)
	}
	c.watch(seen)
	return t
}

// armLocked records the request for d and schedules t at now+d, firing it at
// once when d <= 0 (timers) or when the clock is closed. It returns an
// action to run after unlocking.
func (c *Clock) armLocked(t *timer, d time.Duration, created bool) func() {
	t.wait = -1
	if t.kind != KindTicker && t.kind != KindContext {
		t.wait = c.waits.add(d)
	}
	if created {
		c.counts.Registered++
	}
	c.seq++
	t.seq = c.seq
	t.delay = d
	if c.closed {
		// A closed clock never parks anyone: channel timers fire at once,
		// callbacks and tickers never fire.
		if t.sends() && t.period == 0 {
			t.when = c.now
			return c.fireLocked(t, c.now)
		}
		return nil
	}
	if d <= 0 && t.period == 0 {
		// Zero and negative durations fire at once, as in the time package.
		// During an advance, a chain of them (a zero-delay timer re-armed
		// forever) is cut at the loop limit: the rest wait in the heap,
		// due now, where the advance's loop limit catches them.
		advancing := c.advancing.Load() && t.ctx == nil
		if !advancing || c.zeroFired < c.opts.loopLimit {
			if advancing {
				c.zeroFired++
			}
			t.when = c.now
			return c.fireLocked(t, c.now)
		}
		d = 0
	}
	t.when = c.now.Add(d)
	c.timers.push(t)
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
	return nil
}

// removeLocked takes t out of the heap and drains a fired, unreceived value
// from its channel. It reports whether t was pending or a value was
// drained, as the runtime's Stop and Reset do.
func (c *Clock) removeLocked(t *timer) bool {
	pending := false
	if t.idx >= 0 {
		c.timers.remove(t.idx)
		pending = true
		if t.wait >= 0 {
			c.waits.at(t.wait).stopped = true
		}
	}
	if t.ch != nil {
		select {
		case <-t.ch:
			pending = true
		default:
		}
	}
	return pending
}

// fireLocked fires t at t.when. Channel sends are non-blocking and happen
// under the lock, so that Stop and Reset never leave a stale value behind.
// AfterFunc callbacks start in their own goroutine. The returned action (for
// contexts) must run after unlocking. limit is the end of the current
// advance: a ticker whose tick was dropped skips the periods that would be
// dropped too, up to the next instant anything else can happen.
func (c *Clock) fireLocked(t *timer, limit time.Time) func() {
	c.counts.Fired++
	switch {
	case t.sends():
		sent := t.send(t.when)
		if t.period > 0 {
			next := t.when.Add(t.period)
			if !sent {
				cutoff := limit
				if o := c.timers.peek(); o != nil && o.when.Before(cutoff) {
					cutoff = o.when
				}
				if cutoff.After(next) {
					n := cutoff.Sub(t.when) / t.period
					next = t.when.Add(n * t.period)
					if next.Before(cutoff) {
						next = next.Add(t.period)
					}
				}
			}
			t.when = next
			c.timers.push(t)
		}
		return nil
	case t.f != nil:
		c.cbStarting++
		go c.runCallback(t.f)
		return nil
	case t.ctx != nil:
		return t.ctx.Expire
	}
	return nil
}

// runCallback runs an AfterFunc callback, once it has told a custom settle
// that it is running.
func (c *Clock) runCallback(f func()) {
	c.mu.Lock()
	c.cbStarting--
	c.mu.Unlock()
	f()
}

func run(action func()) {
	if action != nil {
		action()
	}
}

// wait is one wait asked of the clock: a Sleep, an After, a timer or an
// AfterFunc as armed (a Reset arms it again).
type wait struct {
	d time.Duration
	// stopped marks a wait taken back before it fired: a timer stopped
	// or Reset while pending, such as a per-attempt timeout.
	stopped bool
}

// waitLog is the clock's log of waits, in chunks of waitChunk that are
// never copied once full: a fleet asks for millions of waits, and a log
// in one slice spent more time in copies as it grew than the clock spent
// firing them.
type waitLog struct {
	chunks [][]wait
	n      int
}

const waitChunk = 1024

// add logs a wait of d and returns its index.
func (l *waitLog) add(d time.Duration) int {
	k := len(l.chunks)
	if k == 0 || len(l.chunks[k-1]) == waitChunk {
		var c []wait // the first grows as a slice does: most clocks log a few waits
		if k > 0 {
			c = make([]wait, 0, waitChunk)
		}
		l.chunks = append(l.chunks, c)
		k++
	}
	l.chunks[k-1] = append(l.chunks[k-1], wait{d: d})
	l.n++
	return l.n - 1
}

// at returns the wait of index i.
func (l *waitLog) at(i int) *wait { return &l.chunks[i/waitChunk][i%waitChunk] }

// Delays returns the waits the code under test asked of the clock, in the
// order it asked: every Sleep, After, NewTimer and AfterFunc (and each
// Reset of a timer), with the duration asked for, whether it ran its
// course or is still pending — an AfterFunc may be how the next attempt
// is scheduled. A timer stopped before it fired (a per-attempt timeout), a
// ticker and a context deadline are not waits of the loop and are left
// out. The slice is a copy and is never nil.
//
// The checks of package retrytest read the same waits off the clock
// itself: pass the clock as the Schedule.
func (c *Clock) Delays() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	waits := []time.Duration{}
	for _, chunk := range c.waits.chunks {
		for _, w := range chunk {
			if !w.stopped {
				waits = append(waits, w.d)
			}
		}
	}
	return waits
}

// RetrySchedule is the clock as a retrytest.Schedule, the plumbing the
// checks call: the waits of [Clock.Delays]. The clock sees waits, not
// attempts, so n waits read as n+1 attempts, the first immediate.
func (c *Clock) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	return nil, nil, c.Delays(), ""
}

// Counters are monotonic counts of what happened on a Clock. Unlike the
// number of pending timers, they tell "still pending from before" from
// "armed again".
type Counters struct {
	// Registered counts the timers created: each Sleep, After, NewTimer,
	// AfterFunc, NewTicker and fake-time context.
	Registered int
	// Fired counts firings: each timer expiry and each tick (sent or
	// dropped).
	Fired int
	// Stopped counts Stop calls (and context cancellations) that stopped a
	// pending timer or ticker.
	Stopped int
	// Reset counts Reset calls on timers and tickers.
	Reset int
}

// Counters returns the clock's counters.
func (c *Clock) Counters() Counters {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts
}

// Pending returns the timers, tickers, sleeps and context deadlines still
// waiting on the clock, earliest first (ties in the order they were armed).
// It lists an After until it fires, even when nothing references its
// channel any more (the leak check at the end of the test leaves such an
// After out).
func (c *Clock) Pending() []Waiter {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pendingLocked()
}

func (c *Clock) pendingLocked() []Waiter {
	ts := c.timers.sorted()
	out := make([]Waiter, len(ts))
	for i, t := range ts {
		out[i] = t.waiter()
	}
	return out
}

// NextDeadline returns the earliest instant at which something is due on the
// clock, and false when nothing is pending.
func (c *Clock) NextDeadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.timers.peek(); t != nil {
		return t.when, true
	}
	return time.Time{}, false
}
