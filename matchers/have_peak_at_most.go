package matchers

import (
	"errors"
	"fmt"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// HavePeakAtMost succeeds if no bucket of actual, a fleet's load from
// [policysim.Fleet.Simulate], holds more than capacity requests: the
// endpoint recovering from the outage is never sent more than it absorbs.
// It is [policysim.CheckPeakAtMost] as a matcher.
//
//	load, err := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: policy.Decide, Seed: 7}.Simulate()
//	Expect(err).NotTo(HaveOccurred())
//	Expect(load).To(HavePeakAtMost(600))
//
// Actual is a *policysim.Load or a policysim.Load. The failure
// message is the load's text chart with a line at capacity, which the bars
// over it cross, and the peak marked, then the violation. A load never
// changes, so Eventually and Consistently stop at the first answer. A
// negative capacity, a nil load or another type makes Match return an
// error.
func HavePeakAtMost(capacity int) types.GomegaMatcher {
	return &peakMatcher{capacity: capacity}
}

type peakMatcher struct {
	capacity int

	load    *policysim.Load // the load Match checked
	summary string          // its violation, if it failed
}

func (m *peakMatcher) Match(actual any) (bool, error) {
	m.load, m.summary = nil, ""
	var load *policysim.Load
	switch a := actual.(type) {
	case *policysim.Load:
		load = a
	case policysim.Load:
		load = &a
	default:
		return false, fmt.Errorf("HavePeakAtMost matcher expects a *policysim.Load or a policysim.Load.  Got:\n%s", format.Object(actual, 1))
	}
	if load == nil {
		return false, fmt.Errorf("HavePeakAtMost matcher expects a *policysim.Load that is not nil.  Got:\n%s", format.Object(actual, 1))
	}
	if m.capacity < 0 {
		return false, fmt.Errorf("HavePeakAtMost matcher: capacity %d, want >= 0", m.capacity)
	}
	m.load = load
	err := policysim.CheckPeakAtMost(load, m.capacity)
	if pe, ok := errors.AsType[*policysim.PeakError](err); ok {
		m.summary = pe.Summary()
		return false, nil
	}
	return err == nil, err
}

// FailureMessage prints the chart with the capacity line, then "to have a
// peak of at most <capacity> requests per <bucket>: <violation>".
func (m *peakMatcher) FailureMessage(any) string {
	return m.message("to") + ": " + m.summary
}

// NegatedFailureMessage prints the same chart, then "not to have a peak of
// at most <capacity> requests per <bucket>".
func (m *peakMatcher) NegatedFailureMessage(any) string {
	return m.message("not to")
}

func (m *peakMatcher) message(to string) string {
	var b strings.Builder
	b.WriteString("Expected\n")
	for line := range strings.SplitSeq(strings.TrimSuffix(m.load.Chart(m.capacity), "\n"), "\n") {
		b.WriteString(format.Indent)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s have a peak of at most %d requests per %s", to, m.capacity, schedfmt.Duration(m.load.Fleet.Bucket))
	return b.String()
}

// MatchMayChangeInTheFuture returns false: a load is the result of a
// finished simulation and never changes.
func (m *peakMatcher) MatchMayChangeInTheFuture(any) bool { return false }
