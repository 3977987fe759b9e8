package matchers

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/onsi/gomega/format"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/retrytest"
)

// accepted names the actual types every schedule matcher reads.
const accepted = "a retrytest.Schedule (the recorder, a fake clock, a Transport, a Stopwatch, a policysim.Job) or a []time.Duration of waits"

// scheduleMatcher adapts one retrytest check to Gomega. Match keeps the
// report of the snapshot it checked; the messages print that report and
// never read the actual again.
type scheduleMatcher struct {
	name    string // the constructor, for input errors
	phrase  string // what the actual is expected "to" do
	invalid error  // a bad expectation, reported by Match
	run     func(schedcheck.Schedule) *schedcheck.Report

	report *schedcheck.Report
}

// Match checks actual. An actual it cannot read, or an impossible
// expectation, is an error, so the assertion fails negated or not.
func (m *scheduleMatcher) Match(actual any) (bool, error) {
	m.report = nil
	if m.invalid != nil {
		return false, m.inputError(actual, m.invalid)
	}
	s, err := read(actual)
	if err != nil {
		return false, fmt.Errorf("%s matcher%w", m.name, err)
	}
	m.report = m.run(s)
	return m.report.Passed(), nil
}

// FailureMessage prints the schedule with the first violation marked, then
// "to <phrase>: <violations>".
func (m *scheduleMatcher) FailureMessage(any) string {
	return m.report.GomegaMessage(format.Indent, m.phrase, false)
}

// NegatedFailureMessage prints the same schedule unmarked, then
// "not to <phrase>".
func (m *scheduleMatcher) NegatedFailureMessage(any) string {
	return m.report.GomegaMessage(format.Indent, m.phrase, true)
}

// MatchMayChangeInTheFuture tells Eventually and Consistently, polling a
// bare Schedule, when to stop early: a plain slice or retrytest.Waits never
// changes, and a live Schedule's answer is final once a violation cannot be
// undone by more attempts (a recorded delay outside its window, an extra
// attempt).
// Gomega asks before each Match, so it checks actual itself and leaves the
// matcher's state alone.
func (m *scheduleMatcher) MatchMayChangeInTheFuture(actual any) bool {
	if m.invalid != nil {
		return false
	}
	s, err := read(actual)
	if err != nil {
		return false
	}
	return m.run(s).MayChange()
}

// read reads actual as every schedule matcher does: a retrytest.Schedule,
// or a []time.Duration of waits. Another type, a nil one and a Schedule
// whose method panics (a nil pointer) are errors whose text completes
// "<name> matcher": " expects ..." or ": ... panicked: ...".
func read(actual any) (s schedcheck.Schedule, err error) {
	switch a := actual.(type) {
	case []time.Duration:
		return schedcheck.Read(retrytest.Waits(a...), false, ""), nil
	case retrytest.Schedule:
		if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer && v.IsNil() {
			return s, fmt.Errorf(" expects a Schedule that is not nil.  Got:\n%s", format.Object(actual, 1))
		}
		defer func() {
			if r := recover(); r != nil {
				s, err = schedcheck.Schedule{}, fmt.Errorf(": %T.RetrySchedule panicked: %v", a, r)
			}
		}()
		name := reflect.TypeOf(a).String()
		return schedcheck.Read(a, name != "retrytest.waitList", name), nil
	}
	return s, fmt.Errorf(" expects %s.  Got:\n%s", accepted, format.Object(actual, 1))
}

func (m *scheduleMatcher) inputError(actual any, err error) error {
	var ie *schedcheck.InputError
	if errors.As(err, &ie) {
		return fmt.Errorf("%s matcher: %s", m.name, ie.Detail)
	}
	return fmt.Errorf("%s matcher: %w", m.name, err)
}
