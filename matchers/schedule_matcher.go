package matchers

import (
	"errors"
	"fmt"

	"github.com/onsi/gomega/format"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// accepted names the actual types every schedule matcher reads.
const accepted = "[]time.Duration, []retrytest.Attempt, retrytest.DelaysProvider or retrytest.AttemptsProvider"

// scheduleMatcher adapts one retrytest check to Gomega. Match keeps the
// report of the snapshot it checked; the messages print that report and
// never read the actual again.
type scheduleMatcher struct {
	name    string // the constructor, for input errors
	phrase  string // what the actual is expected "to" do
	countOK bool   // an int counts attempts
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
	s, err := schedcheck.Read(actual, m.countOK)
	if err != nil {
		return false, m.inputError(actual, err)
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
// bare provider, when to stop early: a plain slice or count never changes,
// and a provider's answer is final once a violation cannot be undone by
// more attempts (a recorded delay outside its window, an extra attempt).
// Gomega asks before each Match, so it checks actual itself and leaves the
// matcher's state alone.
func (m *scheduleMatcher) MatchMayChangeInTheFuture(actual any) bool {
	if m.invalid != nil {
		return false
	}
	s, err := schedcheck.Read(actual, m.countOK)
	if err != nil {
		return false
	}
	return m.run(s).MayChange()
}

func (m *scheduleMatcher) inputError(actual any, err error) error {
	var ie *schedcheck.InputError
	if !errors.As(err, &ie) {
		return fmt.Errorf("%s matcher: %w", m.name, err)
	}
	switch ie.Kind {
	case schedcheck.WrongType:
		want := "a " + accepted
		if m.countOK {
			want = "an int, " + accepted
		}
		return fmt.Errorf("%s matcher expects %s.  Got:\n%s", m.name, want, format.Object(actual, 1))
	case schedcheck.NilProvider:
		return fmt.Errorf("%s matcher expects a provider that is not nil.  Got:\n%s", m.name, format.Object(actual, 1))
	}
	return fmt.Errorf("%s matcher: %s", m.name, ie.Detail)
}
