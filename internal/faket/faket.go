// Package faket is a fake of the part of testing.T that retrykit's checks
// report through (Helper, Errorf, FailNow): the tests of the packages that
// have Assert forms run a check against it and read what it reported.
package faket

import (
	"errors"
	"fmt"
)

// T records what a check reports through it. FailNow panics with
// errFailNow, which Run recovers, as testing.T's FailNow stops the test.
type T struct {
	// Errors are the messages given to Errorf, in order.
	Errors []string
	// Helpers counts the calls to Helper.
	Helpers int
	// FailedNow is whether FailNow was called.
	FailedNow bool
}

var errFailNow = errors.New("FailNow")

// Helper counts the call.
func (f *T) Helper() { f.Helpers++ }

// Errorf records the message.
func (f *T) Errorf(format string, args ...any) {
	f.Errors = append(f.Errors, fmt.Sprintf(format, args...))
}

// FailNow records the call and stops fn, as testing.T's FailNow stops the
// test: Run recovers.
func (f *T) FailNow() {
	f.FailedNow = true
	panic(errFailNow)
}

// Run calls fn with a new T, stopping where fn called FailNow, and returns
// the T. Any other panic goes on.
func Run(fn func(*T)) *T {
	f := &T{}
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
