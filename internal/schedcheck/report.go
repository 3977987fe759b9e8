package schedcheck

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
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
	// trailing puts the violation on the row of the schedule's trailing
	// wait instead of the row of its attempt.
	trailing bool
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
	// Notes are printed under the table: what the source's clock says of
	// the goroutines of the code under test that wait elsewhere. Only a
	// report that failed asks for them.
	Notes []string

	rows []schedfmt.Row // the schedule table, or
	bars []schedfmt.Bar // the histogram of a spread check (never nil there)
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
	if r.bars != nil {
		bars := make([]schedfmt.Bar, len(r.bars))
		copy(bars, r.bars)
		if mark > 0 {
			bars[mark-1].Marked = true
		}
		return schedfmt.Histogram{Bars: bars, Indent: indent}.String() + r.notes(indent)
	}
	if r.rows == nil {
		return r.notes(indent)
	}
	rows := make([]schedfmt.Row, len(r.rows))
	copy(rows, r.rows)
	if mark > 0 {
		rows[mark-1].Marked = true
	}
	return schedfmt.Table{Rows: rows, Indent: indent, FoldNote: "attempts"}.String() + r.notes(indent)
}

// notes renders Notes under a heading, each line preceded by indent.
func (r *Report) notes(indent string) string {
	if len(r.Notes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(indent + "goroutines of the code under test waiting on something other than its clock:\n")
	for _, n := range r.Notes {
		b.WriteString(indent + "    " + n + "\n")
	}
	return b.String()
}

// withNotes asks s for its notes when the report failed.
func (r *Report) withNotes(s Schedule) *Report {
	if !r.Passed() && s.notes != nil {
		r.Notes = s.notes()
	}
	return r
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
// per attempt made or expected, want(i) in the want column of the row of
// attempt i+1 for i < n, and a row for the trailing wait, if any, right
// after the last attempt made. It numbers the rows of the violations by
// their attempts.
func newScheduleReport(s Schedule, n int, want func(i int) string, vs []Violation) *Report {
	r := &Report{Live: s.Live, Violations: vs}
	got := len(s.Attempts)
	r.Title = "retry schedule (" + schedfmt.Count(got, "attempt")
	if s.Untimed != "" {
		r.Title += ", not timed"
	}
	trail := -1 // the 0-based row of the trailing wait, if any
	if s.trailingRow() {
		r.Title += ", then " + waitPhrase(s)
		trail = got
	}
	r.Title += ")"
	// rowOf is the 0-based row of attempt i+1.
	rowOf := func(i int) int {
		if trail >= 0 && i >= got {
			return i + 1
		}
		return i
	}
	total := max(got, n)
	if trail >= 0 {
		total++
	}
	rows := make([]schedfmt.Row, total)
	for i := range max(got, n) {
		row := schedfmt.Row{Attempt: strconv.Itoa(i + 1)}
		if i < got {
			a := s.Attempts[i]
			row.Delay, row.At, row.Result = schedfmt.Duration(a.Delay), schedfmt.Duration(a.At), a.Result
			if s.Untimed != "" { // the order only: the delay prints as "-", the at column goes
				row.Delay, row.At = "", ""
			}
		} else {
			row.Result = "(missing)"
		}
		if i < n && want != nil {
			row.Want = want(i)
		}
		rows[rowOf(i)] = row
	}
	if trail >= 0 {
		rows[trail] = schedfmt.Row{
			Attempt: "-",
			Delay:   dur(s.Trailing),
			At:      dur(satdur.Add(s.Attempts[got-1].At, s.Trailing)),
			Result:  "(wait after the last attempt)",
		}
	}
	for i := range r.Violations {
		v := &r.Violations[i]
		switch {
		case v.trailing && trail >= 0:
			v.row = trail + 1
		case v.trailing:
		case v.Attempt > 0 && v.Attempt <= max(got, n):
			v.row = rowOf(v.Attempt-1) + 1
		}
		if v.row > 0 && rows[v.row-1].Reason == "" {
			rows[v.row-1].Reason = v.Reason
		}
	}
	r.rows = rows
	return r.withNotes(s)
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

// tail flags a schedule of the wrong length and a wait after its last
// attempt, in the order of their rows: an extra attempt comes before the
// trailing wait, a missing one after it.
func tail(s Schedule, want int) []Violation {
	return inOrder(s, want, countMismatch(s, want))
}

// inOrder adds the trailing wait, if any, to count, the violation of a
// schedule of the wrong length, in the order of their rows.
func inOrder(s Schedule, want int, count []Violation) []Violation {
	tw := trailingWait(s)
	if len(s.Attempts) > want {
		return append(count, tw...)
	}
	return append(tw, count...)
}

// trailingWait flags a wait recorded after the last attempt: the sleep
// after the final attempt, or after an error that was not retried.
func trailingWait(s Schedule) []Violation {
	if !s.trailingRow() {
		return nil
	}
	n := len(s.Attempts)
	return []Violation{{
		Attempt:  n,
		Text:     fmt.Sprintf("%s after the last attempt (%d of %d), want no wait after it", waited(s), n, n),
		Reason:   "a wait no attempt follows",
		trailing: true,
	}}
}

// countMismatch flags a schedule of the wrong length; the row marked is the
// first missing or extra attempt.
func countMismatch(s Schedule, want int) []Violation {
	got := len(s.Attempts)
	if got == want {
		return nil
	}
	text := "got " + schedfmt.Count(got, "attempt") + ", want " + strconv.Itoa(want)
	return []Violation{{Attempt: min(got, want) + 1, Text: text, Reason: text, Final: got > want}}
}

func dur(d time.Duration) string { return schedfmt.Duration(d) }

// waitPhrase names the trailing waits: "a 4s wait", "2 waits of 3s in
// all".
func waitPhrase(s Schedule) string {
	if s.TrailingWaits == 1 {
		return "a " + dur(s.Trailing) + " wait"
	}
	return schedfmt.Count(s.TrailingWaits, "wait") + " of " + dur(s.Trailing) + " in all"
}

// waited says what the trailing waits waited: "waited 4s", "waited 3s in
// 2 waits".
func waited(s Schedule) string {
	if s.TrailingWaits == 1 {
		return "waited " + dur(s.Trailing)
	}
	return "waited " + dur(s.Trailing) + " in " + schedfmt.Count(s.TrailingWaits, "wait")
}
