package recorder

import (
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Stopwatch times the attempts of retry code that calls the time package
// itself — most retry libraries do — from inside a testing/synctest bubble,
// where time.Now is the bubble's fake clock. Call [Stopwatch.Attempt] at the
// start of each attempt (and [Stopwatch.AttemptResult] at its end if the
// table should show results); the checks and matchers read it as a
// retrytest.Schedule:
//
//	synctest.Test(t, func(t *testing.T) {
//		sw := recorder.NewStopwatch()
//		err := retryLib.Do(ctx, func() error { // waits with time.NewTimer
//			sw.Attempt()
//			return errUnavailable
//		})
//		retrytest.AssertAttemptsAt(t, sw, 0, 500*time.Millisecond, 1500*time.Millisecond)
//	})
//
// Offsets count from the start of the stopwatch's schedule: when it was
// made, inside a bubble, so a wait before the first attempt shows and the
// checks flag it. Outside a bubble, time it on a fake clock instead
// ([Stopwatch.WithClock]); on the real clock its offsets are as flaky as
// any wall-clock measurement. For HTTP clients, the httpscript.Transport times the
// requests itself.
//
// A Stopwatch is safe for concurrent use; its accessors return copies.
type Stopwatch struct {
	mu       sync.Mutex
	clock    clockwork.Clock // nil: the time package
	origin   time.Time       // when the schedule starts; zero: at the first attempt
	attempts []time.Time
	results  []string
}

// NewStopwatch returns a Stopwatch that reads time.Now. Made inside a
// testing/synctest bubble, its schedule starts now; made outside one, at
// its first attempt, unless [Stopwatch.WithClock] gives it a clock.
func NewStopwatch() *Stopwatch {
	sw := &Stopwatch{}
	if goheader.InBubble() {
		sw.origin = time.Now()
	}
	return sw
}

// WithClock makes the stopwatch read c instead of time.Now, and returns
// sw. Its schedule starts at c.Now() when WithClock is called, so call it
// before starting the code under test. It panics if c is nil.
func (sw *Stopwatch) WithClock(c clockwork.Clock) *Stopwatch {
	if c == nil {
		panic("recorder: Stopwatch.WithClock: nil clock; leave WithClock out to use time.Now")
	}
	now := c.Now()
	sw.mu.Lock()
	sw.clock, sw.origin = c, now
	sw.mu.Unlock()
	return sw
}

// Attempt marks the start of an attempt at the current time. Its method
// value fits a func() hook.
func (sw *Stopwatch) Attempt() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	now := time.Now
	if sw.clock != nil {
		now = sw.clock.Now
	}
	sw.attempts = append(sw.attempts, now())
	sw.results = append(sw.results, "")
}

// AttemptResult records what the latest attempt returned, for the result
// column of failure tables: "ok" when err is nil, err.Error() otherwise.
// It panics if no attempt has been marked yet.
func (sw *Stopwatch) AttemptResult(err error) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if len(sw.results) == 0 {
		panic("recorder: Stopwatch.AttemptResult: no attempt marked yet; call Attempt when an attempt starts")
	}
	r := "ok"
	if err != nil {
		r = err.Error()
	}
	sw.results[len(sw.results)-1] = r
}

// RetrySchedule reports the attempts marked for the checks (see
// retrytest.Schedule): when each began, as an offset from the start of the
// schedule, and its result. The schedule starts when the stopwatch was
// made inside a bubble or when WithClock was called; otherwise at the
// first attempt, which is then at 0s.
func (sw *Stopwatch) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	attempts, results = schedcheck.Offsets(sw.origin, len(sw.attempts), func(i int) (time.Time, string) { return sw.attempts[i], sw.results[i] })
	return attempts, results, nil, ""
}

// String returns a summary line and the attempts as a schedule table.
func (sw *Stopwatch) String() string {
	at, results, _, _ := sw.RetrySchedule()
	s := "stopwatch: " + schedfmt.Count(len(at), "attempt")
	if len(at) > 0 {
		s += "\n" + schedfmt.AttemptTable(at, results)
	}
	return strings.TrimSuffix(s, "\n")
}

// GomegaString returns the same text as String.
func (sw *Stopwatch) GomegaString() string { return sw.String() }
