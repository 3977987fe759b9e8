package recorder

import (
	"context"
	"sync"
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
	"github.com/retrykit/retrykit/internal/satdur"
)

// Recorder records the delays that code under test asks to wait, and the
// attempts it makes, without waiting. Its Sleep, SleepContext and After
// methods return at once.
//
// The zero value is not ready for use; call [New]. A Recorder is safe for
// concurrent use: calls are recorded in the order they take its lock, and
// every accessor returns a copy.
type Recorder struct {
	mu       sync.Mutex
	delays   []time.Duration
	attempts []Attempt
	total    time.Duration // the sum of every delay recorded, saturating
	mark     int           // len(delays) when the last attempt was marked
}

// New returns an empty Recorder.
func New() *Recorder {
	return &Recorder{}
}

// Sleep records d and returns at once. Its method value fits a
// func(time.Duration) sleep hook. Zero and negative delays are recorded as
// given.
func (r *Recorder) Sleep(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.record(d)
}

// SleepContext records d and returns nil at once. Its method value fits a
// func(context.Context, time.Duration) error sleep hook.
//
// If ctx is already done, SleepContext records nothing and returns
// ctx.Err(), as a real context-aware sleep would without waiting. The
// recorder has no clock, so it does not compare d with ctx's deadline: to
// test a deadline that expires during a wait, use
// [github.com/retrykit/retrykit/fakeclock] or a [testing/synctest] bubble.
func (r *Recorder) SleepContext(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.Sleep(d)
	return nil
}

// After records d and returns a channel that has already received a value,
// so a receive from it returns at once. It makes a *Recorder satisfy timer
// interfaces of the form interface{ After(time.Duration) <-chan time.Time },
// such as avast/retry-go's Timer (retry.WithTimer).
//
// The value sent is the recorder's virtual time when the wait ends:
// 2000-01-01T00:00:00Z, the instant synctest bubbles and fakeclock start at,
// plus the sum of every delay recorded so far, d included.
func (r *Recorder) After(d time.Duration) <-chan time.Time {
	r.mu.Lock()
	r.record(d)
	now := epoch.Time.Add(r.total)
	r.mu.Unlock()
	c := make(chan time.Time, 1)
	c <- now
	return c
}

func (r *Recorder) record(d time.Duration) {
	r.delays = append(r.delays, d)
	r.total = satdur.Add(r.total, d)
}

// Attempt marks the start of an attempt. The attempt's Delay is the sum of
// the delays recorded since the previous attempt (or since the start, for
// the first one) and its At is the sum of every delay recorded before it.
// Its method value fits a func() hook.
func (r *Recorder) Attempt() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts = append(r.attempts, Attempt{
		Index: len(r.attempts) + 1,
		At:    r.total,
		Delay: satdur.Sum(r.delays[r.mark:]),
	})
	r.mark = len(r.delays)
}

// AttemptResult records what the latest attempt returned, for the result
// column of the schedule table: "ok" when err is nil, err.Error()
// otherwise. A later call for the same attempt replaces the result.
//
// AttemptResult panics if no attempt has been marked yet: call
// [Recorder.Attempt] when an attempt starts and AttemptResult when it ends.
func (r *Recorder) AttemptResult(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.attempts) == 0 {
		panic("recorder: AttemptResult: no attempt has been marked; call Attempt when an attempt starts")
	}
	res := "ok"
	if err != nil {
		res = err.Error()
	}
	r.attempts[len(r.attempts)-1].Result = res
}

// Delays returns every delay recorded, in order, including delays recorded
// after the last attempt. The slice is a copy and is never nil.
func (r *Recorder) Delays() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]time.Duration, len(r.delays))
	copy(out, r.delays)
	return out
}

// Attempts returns the attempts marked with [Recorder.Attempt], in order,
// each with its 1-based Index, its At offset and the Delay before it (see
// [Attempt]). Delays recorded after the last attempt belong to no attempt:
// they appear in [Recorder.Delays] and in the table of [Recorder.String],
// and the checks of package retrytest report each of them (see the
// package documentation). The slice is a copy and is never nil.
func (r *Recorder) Attempts() []Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Attempt, len(r.attempts))
	copy(out, r.attempts)
	return out
}

// RetrySchedule reports what the recorder saw for the checks of package
// retrytest (see retrytest.Schedule): when each attempt began, in virtual
// time, its result, and the delays recorded after the last attempt, which
// no attempt followed (a sleep after the final attempt, even Sleep(0), is
// a bug the checks report). A recorder that marked no attempt but
// recorded delays reports those delays alone, read as the waits between
// attempts; one that recorded nothing made no attempt.
func (r *Recorder) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.attempts) == 0 && len(r.delays) > 0 {
		return nil, nil, append([]time.Duration(nil), r.delays...), ""
	}
	attempts, results = make([]time.Duration, len(r.attempts)), make([]string, len(r.attempts))
	for i, a := range r.attempts {
		attempts[i], results[i] = a.At, a.Result
	}
	return attempts, results, append([]time.Duration(nil), r.delays[r.mark:]...), ""
}

// Reset forgets every delay and attempt recorded, so the Recorder can be
// reused as if it were new.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.delays, r.attempts = nil, nil
	r.total, r.mark = 0, 0
}
