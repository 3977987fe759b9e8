// Package faket is a fake of the part of testing.T that retrykit's checks
// and fixtures report through (Helper, Errorf, FailNow, and for fixtures
// Fatalf, Logf and Cleanup): the tests of the packages that have Assert
// forms or fixtures run them against it and read what they reported.
package faket

import (
	"errors"
	"fmt"
	"sync"
)

// T records what a check or a fixture reports through it. FailNow and
// Fatalf panic with errFailNow, which Run recovers, as testing.T's FailNow
// stops the test. It is safe for concurrent use, as a fixture's t must be.
type T struct {
	mu sync.Mutex
	// Errors are the messages given to Errorf and Fatalf, in order.
	Errors []string
	// Logs are the messages given to Logf, in order.
	Logs []string
	// Helpers counts the calls to Helper.
	Helpers int
	// FailedNow is whether FailNow or Fatalf was called.
	FailedNow bool

	cleanups []func()
}

var errFailNow = errors.New("FailNow")

// Helper counts the call.
func (f *T) Helper() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Helpers++
}

// Errorf records the message.
func (f *T) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Errors = append(f.Errors, fmt.Sprintf(format, args...))
}

// Logf records the message.
func (f *T) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Logs = append(f.Logs, fmt.Sprintf(format, args...))
}

// Fatalf records the message and stops fn, as FailNow does.
func (f *T) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	f.FailNow()
}

// FailNow records the call and stops fn, as testing.T's FailNow stops the
// test: Run recovers.
func (f *T) FailNow() {
	f.mu.Lock()
	f.FailedNow = true
	f.mu.Unlock()
	panic(errFailNow)
}

// Cleanup registers fn to run when Run ends (or Finish is called), last
// registered first.
func (f *T) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// Finish runs the cleanups registered so far, last registered first, each
// stopping where it called FailNow, and returns the errors recorded.
func (f *T) Finish() []string {
	for {
		f.mu.Lock()
		n := len(f.cleanups)
		if n == 0 {
			errs := append([]string(nil), f.Errors...)
			f.mu.Unlock()
			return errs
		}
		fn := f.cleanups[n-1]
		f.cleanups = f.cleanups[:n-1]
		f.mu.Unlock()
		f.guard(fn)
	}
}

// guard runs fn, recovering the panic of FailNow.
func (f *T) guard(fn func()) {
	defer func() {
		if r := recover(); r != nil && r != errFailNow {
			panic(r)
		}
	}()
	fn()
}

// Run calls fn with a new T, stopping where fn called FailNow, then runs
// its cleanups, and returns the T. Any other panic goes on.
func Run(fn func(*T)) *T {
	f := &T{}
	f.guard(func() { fn(f) })
	f.Finish()
	return f
}

// PanicText runs fn and returns what it panicked with (a string, or the
// text of an error), or "" when it did not panic.
func PanicText(fn func()) (s string) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case string:
			s = r
		case error:
			s = r.Error()
		default:
			s = fmt.Sprint(r)
		}
	}()
	fn()
	return ""
}
