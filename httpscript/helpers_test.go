package httpscript_test

import (
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// fakeT records what a transport or a ledger reports through it.
type fakeT = faket.T

// run calls fn with a fakeT, stopping where fn called FailNow, and
// returns it.
func run(fn func(t fakeclock.FixtureT)) *fakeT {
	return faket.Run(func(f *faket.T) { fn(f) })
}

// attemptsOf reads s's attempts as the recorder lists its own.
func attemptsOf(s retrytest.Schedule) []recorder.Attempt {
	at, results, _, _ := s.RetrySchedule()
	out := make([]recorder.Attempt, len(at))
	var prev time.Duration
	for i, a := range at {
		out[i] = recorder.Attempt{Index: i + 1, At: a, Delay: a - prev, Result: results[i]}
		prev = a
	}
	return out
}
