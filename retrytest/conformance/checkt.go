package conformance

import (
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
)

// tb is what a property needs of its t. Every property runs with a
// [checkT], in the Test forms as in the Check forms, so that what it
// reports — inside a testing/synctest bubble too — becomes a Result that
// the Test forms then report through the *testing.T outside the bubble.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
	FailNow()
	Skip(args ...any)
	// Run runs f as the case of the property named name, on a t of its
	// own: its failures and its skip are the case's, and its cleanups run
	// when f returns.
	Run(name string, f func(t tb))
}

// checkT records what a property, or one of its cases, reports: a
// verdict.Recorder whose cases get a tb too.
type checkT struct{ *verdict.Recorder }

func newCheckT() *checkT { return &checkT{&verdict.Recorder{}} }

// Run runs f as the case of the property named name, on a checkT of its
// own.
func (r *checkT) Run(name string, f func(t tb)) {
	r.Recorder.Run(name, func(c *verdict.Recorder) { f(&checkT{c}) })
}

func (r *checkT) run(f func())                { r.Exec(f) }
func (r *checkT) result() (Verdict, string)   { return r.Result() }
func (r *checkT) property(name string) Result { return r.Property(name) }
