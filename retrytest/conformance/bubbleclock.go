package conformance

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// bubbleClock is the Seams.Clock of a call made in a testing/synctest
// bubble: the bubble's own time (the time package, which is fake there),
// behind the clockwork.Clock interface, keeping a register of the timers,
// tickers and sleeps armed through it. So code handed a clock waits on the
// same time as code that calls the time package, and a bubble's NoLeaks
// sees what the code left armed on the clock it was given (a bubble lists
// no timer of the time package), and WaitsOnTheClock tells a wait on the
// clock from one on something else.
type bubbleClock struct {
	real clockwork.Clock

	mu      sync.Mutex
	armed   int            // timers, tickers, sleeps and Afters armed in all
	reads   int            // calls of Now, Since and Until
	pending map[*mark]bool // not yet fired, stopped or ended
	waiting map[*mark]bool // sleeps and Afters in progress
}

// mark is one thing armed on a bubbleClock.
type mark struct {
	kind     string // "Timer", "Ticker", "AfterFunc", "Sleep", "After"
	deadline time.Time
	site     string
}

var _ clockwork.Clock = (*bubbleClock)(nil)

func newBubbleClock() *bubbleClock {
	return &bubbleClock{real: clockwork.NewRealClock(), pending: map[*mark]bool{}, waiting: map[*mark]bool{}}
}

func (b *bubbleClock) arm(kind string, d time.Duration) *mark {
	m := &mark{kind: kind, deadline: time.Now().Add(d), site: callerSite()}
	b.mu.Lock()
	b.armed++
	b.pending[m] = true
	b.mu.Unlock()
	return m
}

func (b *bubbleClock) done(m *mark) {
	b.mu.Lock()
	delete(b.pending, m)
	delete(b.waiting, m)
	b.mu.Unlock()
}

func (b *bubbleClock) read() {
	b.mu.Lock()
	b.reads++
	b.mu.Unlock()
}

func (b *bubbleClock) Now() time.Time                  { b.read(); return b.real.Now() }
func (b *bubbleClock) Since(t time.Time) time.Duration { b.read(); return b.real.Since(t) }
func (b *bubbleClock) Until(t time.Time) time.Duration { b.read(); return b.real.Until(t) }

func (b *bubbleClock) Sleep(d time.Duration) {
	m := b.arm("Sleep", d)
	b.mu.Lock()
	b.waiting[m] = true
	b.mu.Unlock()
	defer b.done(m)
	b.real.Sleep(d)
}

func (b *bubbleClock) After(d time.Duration) <-chan time.Time {
	// An After nobody reads is no leak: it fires, and is done.
	m := b.arm("After", d)
	out := make(chan time.Time, 1)
	b.real.AfterFunc(d, func() {
		b.done(m)
		out <- time.Now()
	})
	return out
}

func (b *bubbleClock) NewTimer(d time.Duration) clockwork.Timer {
	m := b.arm("Timer", d)
	bt := &bubbleTimer{b: b, m: m, c: make(chan time.Time, 1)}
	bt.t = b.real.AfterFunc(d, bt.fire)
	return bt
}

func (b *bubbleClock) AfterFunc(d time.Duration, f func()) clockwork.Timer {
	m := b.arm("AfterFunc", d)
	bt := &bubbleTimer{b: b, m: m, f: f}
	bt.t = b.real.AfterFunc(d, bt.fire)
	return bt
}

func (b *bubbleClock) NewTicker(d time.Duration) clockwork.Ticker {
	m := b.arm("Ticker", d)
	return &bubbleTicker{b: b, m: m, Ticker: b.real.NewTicker(d)}
}

// bubbleTimer is a timer or AfterFunc of a bubbleClock.
type bubbleTimer struct {
	b *bubbleClock
	m *mark
	c chan time.Time // nil for an AfterFunc
	f func()
	t clockwork.Timer
}

func (t *bubbleTimer) fire() {
	t.b.done(t.m)
	if t.f != nil {
		t.f()
		return
	}
	select {
	case t.c <- time.Now():
	default:
	}
}

func (t *bubbleTimer) Chan() <-chan time.Time { return t.c }

func (t *bubbleTimer) Stop() bool {
	t.b.done(t.m)
	return t.t.Stop()
}

func (t *bubbleTimer) Reset(d time.Duration) bool {
	t.b.mu.Lock()
	t.m.deadline = time.Now().Add(d)
	t.b.pending[t.m] = true
	t.b.mu.Unlock()
	return t.t.Reset(d)
}

// bubbleTicker is a ticker of a bubbleClock: pending until stopped.
type bubbleTicker struct {
	b *bubbleClock
	m *mark
	clockwork.Ticker
}

func (t *bubbleTicker) Stop() {
	t.b.done(t.m)
	t.Ticker.Stop()
}

// used reports whether the code armed anything on the clock, or read it.
func (b *bubbleClock) used() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.armed > 0 || b.reads > 0
}

// nextDeadline is the earliest deadline of what is armed on the clock.
func (b *bubbleClock) nextDeadline() (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var next time.Time
	for m := range b.pending {
		if next.IsZero() || m.deadline.Before(next) {
			next = m.deadline
		}
	}
	return next, !next.IsZero()
}

// leftArmed lists, one line each, what is still armed on the clock: a
// timer, ticker or AfterFunc the code did not stop (an After, a sleep in
// progress is a goroutine, which the goroutine check reports), or "".
func (b *bubbleClock) leftArmed() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines []string
	for m := range b.pending {
		if m.kind == "After" || m.kind == "Sleep" {
			continue
		}
		lines = append(lines, fmt.Sprintf("    %s due at %s, armed at %s", m.kind, m.deadline.Format("15:04:05.999999999"), m.site))
	}
	if len(lines) == 0 {
		return ""
	}
	slices.Sort(lines)
	return fmt.Sprintf("%s still armed on Seams.Clock (stop them):\n%s", schedfmt.Count(len(lines), "timer"), strings.Join(lines, "\n"))
}

// callerSite is the file:line of the first caller outside this file and
// clockctx: where the code armed the wait.
func callerSite() string {
	pcs := make([]uintptr, 16)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.Contains(f.File, "/conformance/bubbleclock.go") && !strings.Contains(f.Function, "retrykit/clockctx.") {
			return fmt.Sprintf("%s:%d", shortFile(f.File), f.Line)
		}
		if !more {
			return "unknown"
		}
	}
}

func shortFile(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}
