package conformance

import (
	"fmt"
	"strings"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Status is how a property ended.
type Status int

// The statuses of a property.
const (
	Passed  Status = iota // the code meets the property
	Failed                // the code breaks it; Result.Message says how
	Skipped               // the shape or the Spec cannot express it; Message says why
	Waived                // it fails, and the user waived it (Waive); Message is their reason
)

// String returns "pass", "FAIL", "skip" or "waived".
func (s Status) String() string {
	switch s {
	case Passed:
		return "pass"
	case Failed:
		return "FAIL"
	case Skipped:
		return "skip"
	case Waived:
		return "waived"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Result is the outcome of one property.
type Result struct {
	// Property is its name, as the subtest is named: "WaitsInWindows".
	Property string
	// Status is how it ended.
	Status Status
	// Message is the failure's text (with the schedule's table), or why the
	// property was skipped or waived; "" for a pass.
	Message string
}

// Report is what a Check function found: every property of the shape, in
// order.
type Report struct {
	// Shape is "policy", "loop" or "client".
	Shape string
	// Results holds one Result per property.
	Results []Result
}

// Passed reports whether no property failed.
func (r *Report) Passed() bool {
	for _, res := range r.Results {
		if res.Status == Failed {
			return false
		}
	}
	return true
}

// Failed returns the names of the properties that failed, in order: the
// list a test pins when it documents the gaps of a library.
func (r *Report) Failed() []string {
	var out []string
	for _, res := range r.Results {
		if res.Status == Failed {
			out = append(out, res.Property)
		}
	}
	return out
}

// String prints the report: a table of the properties and how each ended,
// then the text of each failure under its property's name.
//
//	conformance of the loop: 2 of 17 properties fail
//	    property               result
//	    FirstAttemptImmediate  pass
//	  > AttemptCount           FAIL
//	    ...
func (r *Report) String() string {
	var b strings.Builder
	failed := 0
	for _, res := range r.Results {
		if res.Status == Failed {
			failed++
		}
	}
	if failed == 0 {
		fmt.Fprintf(&b, "conformance of the %s: every property holds\n", r.Shape)
	} else {
		fmt.Fprintf(&b, "conformance of the %s: %d of %s fail\n", r.Shape, failed, schedfmt.Count(len(r.Results), "property"))
	}
	g := schedfmt.Grid{Header: []string{"property", "result"}, Indent: "  "}
	for _, res := range r.Results {
		cell := res.Status.String()
		if res.Status == Skipped || res.Status == Waived {
			cell += ": " + res.Message
		}
		g.Rows = append(g.Rows, schedfmt.GridRow{Cells: []string{res.Property, cell}, Marked: res.Status == Failed})
	}
	b.WriteString(g.String())
	for _, res := range r.Results {
		if res.Status == Failed {
			fmt.Fprintf(&b, "\n--- %s\n%s\n", res.Property, strings.TrimRight(res.Message, "\n"))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
