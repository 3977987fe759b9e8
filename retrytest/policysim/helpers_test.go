package policysim_test

import (
	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/retrytest"
)

// fakeT records what a check reports through it.
type fakeT = faket.T

// run calls fn with a fakeT, stopping where fn called FailNow, and
// returns it.
func run(fn func(t retrytest.TestingT)) *fakeT {
	return faket.Run(func(f *faket.T) { fn(f) })
}

// forms holds the two forms of one check, bound to its arguments, and the
// way a test stops at a failure, which the package doc of retrytest
// gives in place of the Require forms: the Assert form, then FailNow.
type forms struct {
	check   func() error
	assert  func(retrytest.TestingT) bool
	require func(retrytest.TestingT)
}

// newForms binds the require way to assert, written inline as a test
// writes it (so Helper calls come from assert alone).
func newForms(check func() error, assert func(retrytest.TestingT) bool) forms {
	return forms{check, assert, func(t retrytest.TestingT) {
		if !assert(t) {
			t.FailNow()
		}
	}}
}
