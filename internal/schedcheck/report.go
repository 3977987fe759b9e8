package schedcheck

import (
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Violation is one way a schedule failed a check.
type Violation struct {
	// Attempt is the 1-based attempt the violation is about, or 0 when it
	// concerns the schedule as a whole.
	Attempt int
	// Text is the standalone summary, e.g.
	// "attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]".
	Text string
	// Reason is the short note printed after the marked row.
	Reason string
	// Final reports that recording more attempts cannot undo the
	// violation (a recorded delay never changes; extra attempts never go).
	Final bool
	// row is the 1-based table row (or histogram bucket) to mark; 0 for
	// none.
	row int
}

// Error returns Text.
func (v Violation) Error() string { return v.Text }

// Report is the outcome of one check over one schedule.
type Report struct {
	// Title names what the table shows: "retry schedule (3 attempts)".
	Title string
	// Violations are every problem found, in order; the first one with a
	// row is marked. Empty when the check passed.
	Violations []Violation
	// Live is copied from the schedule: a provider may record more.
	Live bool

	rows []schedfmt.Row
	bars []schedfmt.Bar
	hist bool
}

// Passed reports whether the check found no violation.
func (r *Report) Passed() bool { return len(r.Violations) == 0 }

// MayChange reports whether checking the same provider again later could
// give another answer: only for a live schedule with no final violation.
func (r *Report) MayChange() bool {
	if !r.Live {
		return false
	}
	for _, v := range r.Violations {
		if v.Final {
			return false
		}
	}
	return true
}

// Body renders the table (or histogram) with every line preceded by indent.
// With marked set, the first violation's row gets the "> " gutter.
func (r *Report) Body(indent string, marked bool) string {
	mark := 0
	if marked {
		for _, v := range r.Violations {
			if v.row > 0 {
				mark = v.row
				break
			}
		}
	}
	if r.hist {
		bars := make([]schedfmt.Bar, len(r.bars))
		copy(bars, r.bars)
		if mark > 0 {
			bars[mark-1].Marked = true
		}
		return schedfmt.Histogram{Bars: bars, Indent: indent}.String()
	}
	if r.rows == nil {
		return ""
	}
	rows := make([]schedfmt.Row, len(r.rows))
	copy(rows, r.rows)
	if mark > 0 {
		rows[mark-1].Marked = true
	}
	return schedfmt.Table{Rows: rows, Indent: indent, FoldNote: "attempts"}.String()
}

// GomegaMessage is a Gomega failure message: "Expected", the title
// indented by indent and the table under it (its gutter at the same
// indent), then "to <phrase>" (or "not to <phrase>" when
// negated) followed by the violations. The negated table has no marker.
func (r *Report) GomegaMessage(indent, phrase string, negated bool) string {
	var b strings.Builder
	b.WriteString("Expected\n")
	b.WriteString(indent)
	b.WriteString(r.Title)
	b.WriteByte('\n')
	// The gutter sits under the title, the rows two columns deeper.
	b.WriteString(r.Body(indent, !negated))
	if negated {
		b.WriteString("not to ")
		b.WriteString(phrase)
		return b.String()
	}
	b.WriteString("to ")
	b.WriteString(phrase)
	switch len(r.Violations) {
	case 0:
	case 1:
		b.WriteString(": ")
		b.WriteString(r.Violations[0].Text)
	default:
		b.WriteByte(':')
		for _, v := range r.Violations {
			b.WriteByte('\n')
			b.WriteString(indent)
			b.WriteString(v.Text)
		}
	}
	return b.String()
}

// newScheduleReport builds the table of s with n expected attempts: one row
// per attempt made or expected, want(i) in the want column of row i+1 for
// i < n. It numbers the rows of the violations by their attempts.
func newScheduleReport(s Schedule, n int, want func(i int) string, vs []Violation) *Report {
	r := &Report{Live: s.Live, Violations: vs}
	if s.CountOnly {
		r.Title = plural(s.Count, "attempt")
		return r
	}
	r.Title = "retry schedule (" + plural(len(s.Attempts), "attempt") + ")"
	rows := make([]schedfmt.Row, max(len(s.Attempts), n))
	for i := range rows {
		row := schedfmt.Row{Attempt: strconv.Itoa(i + 1)}
		if i < len(s.Attempts) {
			a := s.Attempts[i]
			row.Delay, row.At, row.Result = schedfmt.Duration(a.Delay), schedfmt.Duration(a.At), a.Result
		} else {
			row.Result = "(missing)"
		}
		if i < n && want != nil {
			row.Want = want(i)
		}
		rows[i] = row
	}
	for i := range r.Violations {
		if a := r.Violations[i].Attempt; a > 0 && a <= len(rows) {
			r.Violations[i].row = a
			if rows[a-1].Reason == "" {
				rows[a-1].Reason = r.Violations[i].Reason
			}
		}
	}
	r.rows = rows
	return r
}

// firstImmediate flags a wait before attempt 1.
func firstImmediate(s Schedule) []Violation {
	if len(s.Attempts) == 0 || s.Attempts[0].Delay == 0 {
		return nil
	}
	d := schedfmt.Duration(s.Attempts[0].Delay)
	return []Violation{{
		Attempt: 1,
		Text:    "attempt 1 of " + strconv.Itoa(len(s.Attempts)) + ": delay = " + d + ", want 0s (the first attempt is immediate)",
		Reason:  "waited " + d + " before the first attempt",
		Final:   true,
	}}
}

// countMismatch flags a schedule of the wrong length; the row marked is the
// first missing or extra attempt.
func countMismatch(s Schedule, want int) []Violation {
	got := len(s.Attempts)
	if got == want {
		return nil
	}
	text := "got " + plural(got, "attempt") + ", want " + strconv.Itoa(want)
	return []Violation{{Attempt: min(got, want) + 1, Text: text, Reason: text, Final: got > want}}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if noun == "retry" {
		return strconv.Itoa(n) + " retries"
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func dur(d time.Duration) string { return schedfmt.Duration(d) }
