package retrytest_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// fakeT records what a check reports through it. FailNow panics with
// errFailNow, which run recovers, as testing.T's FailNow stops the test.
type fakeT struct {
	errors    []string
	helper    int
	failedNow bool
}

var errFailNow = errors.New("FailNow")

func (f *fakeT) Helper() { f.helper++ }
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) FailNow() {
	f.failedNow = true
	panic(errFailNow)
}

// run calls fn with a fakeT and returns it.
func run(fn func(t retrytest.TestingT)) *fakeT {
	f := &fakeT{}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		fn(f)
	}()
	return f
}

// forms holds the three forms of one check, bound to its arguments.
type forms struct {
	check   func() error
	assert  func(retrytest.TestingT) bool
	require func(retrytest.TestingT)
}

func delays(got any, want ...time.Duration) forms {
	return forms{
		func() error { return retrytest.CheckDelays(got, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertDelays(t, got, want...) },
		func(t retrytest.TestingT) { retrytest.RequireDelays(t, got, want...) },
	}
}

func within(got any, want ...retrytest.Window) forms {
	return forms{
		func() error { return retrytest.CheckDelaysWithin(got, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertDelaysWithin(t, got, want...) },
		func(t retrytest.TestingT) { retrytest.RequireDelaysWithin(t, got, want...) },
	}
}

func attempts(got any, want int) forms {
	return forms{
		func() error { return retrytest.CheckAttempts(got, want) },
		func(t retrytest.TestingT) bool { return retrytest.AssertAttempts(t, got, want) },
		func(t retrytest.TestingT) { retrytest.RequireAttempts(t, got, want) },
	}
}

func attemptsAt(got any, want ...time.Duration) forms {
	return forms{
		func() error { return retrytest.CheckAttemptsAt(got, want...) },
		func(t retrytest.TestingT) bool { return retrytest.AssertAttemptsAt(t, got, want...) },
		func(t retrytest.TestingT) { retrytest.RequireAttemptsAt(t, got, want...) },
	}
}

func totalDelay(got any, want time.Duration) forms {
	return forms{
		func() error { return retrytest.CheckTotalDelay(got, want) },
		func(t retrytest.TestingT) bool { return retrytest.AssertTotalDelay(t, got, want) },
		func(t retrytest.TestingT) { retrytest.RequireTotalDelay(t, got, want) },
	}
}

func cappedAt(got any, c time.Duration) forms {
	return forms{
		func() error { return retrytest.CheckCappedAt(got, c) },
		func(t retrytest.TestingT) bool { return retrytest.AssertCappedAt(t, got, c) },
		func(t retrytest.TestingT) { retrytest.RequireCappedAt(t, got, c) },
	}
}

func spread(got any, spec retrytest.Spread) forms {
	return forms{
		func() error { return retrytest.CheckSpread(got, spec) },
		func(t retrytest.TestingT) bool { return retrytest.AssertSpread(t, got, spec) },
		func(t retrytest.TestingT) { retrytest.RequireSpread(t, got, spec) },
	}
}

// Test providers.

type delaysOnly []time.Duration

func (d delaysOnly) Delays() []time.Duration { return d }

type attemptsOnly []retrytest.Attempt

func (a attemptsOnly) Attempts() []retrytest.Attempt { return a }

type pointerProvider struct{ delays []time.Duration }

func (p *pointerProvider) Delays() []time.Duration { return p.delays }

type panicky struct{}

func (panicky) Attempts() []retrytest.Attempt { panic("recorder closed") }

const ms = time.Millisecond

func win(lo, hi time.Duration) retrytest.Window { return retrytest.Window{Min: lo, Max: hi} }
