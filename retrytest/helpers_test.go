package retrytest_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// fakeT records what a check reports through it.
type fakeT = faket.T

// run calls fn with a fakeT, stopping where fn called FailNow, and
// returns it.
func run(fn func(t retrytest.TestingT)) *fakeT {
	return faket.Run(func(f *faket.T) { fn(f) })
}

// forms holds the two forms of one check, bound to its arguments.
type forms struct {
	check  func() error
	assert func(retrytest.TestingT) bool
}

// sched is what the tables of this package's tests write as got: a
// []time.Duration of waits, a []recorder.Attempt, or a Schedule.
func sched(got any) retrytest.Schedule {
	switch g := got.(type) {
	case []time.Duration:
		return retrytest.Waits(g...)
	case []recorder.Attempt:
		return attemptsOnly(g)
	case retrytest.Schedule:
		return g
	case nil:
		return nil
	}
	panic(fmt.Sprintf("sched: %T", got))
}

func delays(got any, want ...time.Duration) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckDelays(s, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertDelays(t, s, want...) },
	}
}

func within(got any, want ...retrytest.Window) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckDelaysWithin(s, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertDelaysWithin(t, s, want...) },
	}
}

func attempts(got any, want int) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckAttempts(s, want) },
		func(t retrytest.TestingT) bool { return retrytest.AssertAttempts(t, s, want) },
	}
}

func attemptsAt(got any, want ...time.Duration) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckAttemptsAt(s, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertAttemptsAt(t, s, want...) },
	}
}

func totalDelay(got any, want time.Duration) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckTotalDelay(s, want) },
		func(t retrytest.TestingT) bool { return retrytest.AssertTotalDelay(t, s, want) },
	}
}

func cappedAt(got any, c time.Duration) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckCappedAt(s, c) },
		func(t retrytest.TestingT) bool { return retrytest.AssertCappedAt(t, s, c) },
	}
}

func spread(got any, spec retrytest.Spread) forms {
	s := sched(got)
	return forms{
		func() error { return retrytest.CheckSpread(s, spec) },
		func(t retrytest.TestingT) bool { return retrytest.AssertSpread(t, s, spec) },
	}
}

// Test schedules.

// delaysOnly is a live source that sees waits, not attempts, as a clock
// does.
type delaysOnly []time.Duration

func (d delaysOnly) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return nil, nil, d, ""
}

// attemptsOnly is a live source of attempts, with their results.
type attemptsOnly []recorder.Attempt

func (a attemptsOnly) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	at, results := make([]time.Duration, len(a)), make([]string, len(a))
	for i, x := range a {
		at[i], results[i] = x.At, x.Result
	}
	return at, results, nil, ""
}

type pointerProvider struct{ delays []time.Duration }

func (p *pointerProvider) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return nil, nil, p.delays, ""
}

type panicky struct{}

func (panicky) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	panic("recorder closed")
}

const ms = time.Millisecond

func win(lo, hi time.Duration) retrytest.Window { return retrytest.Window{Min: lo, Max: hi} }

// constSource is a random source that always returns the same word.
type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }
