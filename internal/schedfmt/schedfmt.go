// Package schedfmt renders retry schedules as the one fixed-width table that
// every retrykit failure message, String method and Gomega matcher prints.
//
// The rules it enforces (see the house style): durations as "1.5s", the
// offending row marked with a "> " gutter and a trailing "  <-- reason",
// columns aligned, no trailing spaces, "\n" line ends, and nothing that
// varies between runs. [Histogram] (a spread of delays) and [Grid] (the
// other tables of the harnesses) print by the same rules, through the same
// code.
package schedfmt

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration formats d as every retrykit message does: [time.Duration.String]
// with zero trailing units dropped, so an hour prints as "1h" and ninety
// minutes as "1h30m", while "1.5s" and "500ms" are unchanged.
func Duration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Window formats an inclusive window as "[min, max]".
func Window(lo, hi time.Duration) string {
	return "[" + Duration(lo) + ", " + Duration(hi) + "]"
}

// HalfOpen formats the range from lo up to but not including hi: "[0s, 1s)".
func HalfOpen(lo, hi time.Duration) string {
	return "[" + Duration(lo) + ", " + Duration(hi) + ")"
}

// Row is one line of a schedule table. Empty cells print as "-" when the
// column is shown at all.
type Row struct {
	Attempt string // the 1-based attempt number
	Delay   string // the wait before this attempt; "0s" for the first
	At      string // the offset of the attempt from the first one
	Want    string // what the check expected: a window or an exact value
	Result  string // what the attempt returned: "ok", an error, a status
	Marked  bool   // the first offending row gets the "> " gutter
	Reason  string // printed after the row as "  <-- reason" when Marked
}

// AttemptRow is the row of attempt number n (1-based), made after waiting
// delay, at offset at, which returned result: the row every schedule table
// prints for an attempt, before a check adds what it wanted.
func AttemptRow(n int, delay, at time.Duration, result string) Row {
	return Row{Attempt: strconv.Itoa(n), Delay: Duration(delay), At: Duration(at), Result: result}
}

// Table is a schedule ready to print.
type Table struct {
	Rows []Row
	// Indent precedes every line, gutter included.
	Indent string
	// FoldNote names a run of folded, unmarked rows, for example
	// "attempts within their windows". Tables of more than FoldAbove rows
	// fold runs of unmarked rows that are far from a marked row.
	FoldNote string
}

// FoldAbove is the row count above which long runs of unmarked rows are
// folded into one "... N <FoldNote> ..." line.
const FoldAbove = 20

// keep is how many rows around a marked row, and at each end, stay visible
// when a table is folded.
const keep = 2

type column struct {
	name string
	cell func(Row) string
}

var columns = []column{
	{"attempt", func(r Row) string { return r.Attempt }},
	{"delay", func(r Row) string { return r.Delay }},
	{"at", func(r Row) string { return r.At }},
	{"want", func(r Row) string { return r.Want }},
	{"result", func(r Row) string { return r.Result }},
}

// String renders the table: a header line and one line per row (or per
// folded run), each ending in "\n".
func (t Table) String() string {
	var shown []column
	for i, c := range columns {
		if i < 2 || anyCell(t.Rows, c.cell) {
			shown = append(shown, c)
		}
	}
	widths := make([]int, len(shown))
	for i, c := range shown {
		widths[i] = width(c.name)
		for _, r := range t.Rows {
			widths[i] = max(widths[i], width(cellOrDash(c.cell(r))))
		}
	}
	var b strings.Builder
	header := make([]string, len(shown))
	for i, c := range shown {
		header[i] = c.name
	}
	writeLine(&b, t.Indent, "  ", header, widths, "")
	visible := t.visible()
	for i := 0; i < len(t.Rows); i++ {
		if !visible[i] {
			j := i
			for j < len(t.Rows) && !visible[j] {
				j++
			}
			note := t.FoldNote
			if note == "" {
				note = "rows"
			}
			fmt.Fprintf(&b, "%s  ... %d %s ...\n", t.Indent, j-i, note)
			i = j - 1
			continue
		}
		r := t.Rows[i]
		cells := make([]string, len(shown))
		for k, c := range shown {
			cells[k] = cellOrDash(c.cell(r))
		}
		gutter, reason := "  ", ""
		if r.Marked {
			gutter, reason = "> ", r.Reason
		}
		writeLine(&b, t.Indent, gutter, cells, widths, reason)
	}
	return b.String()
}

// visible reports, per row, whether it is printed or folded.
func (t Table) visible() []bool {
	v := make([]bool, len(t.Rows))
	if len(t.Rows) <= FoldAbove {
		for i := range v {
			v[i] = true
		}
		return v
	}
	for i, r := range t.Rows {
		if i < keep || i >= len(t.Rows)-keep {
			v[i] = true
		}
		if r.Marked {
			for j := max(0, i-keep); j <= min(len(t.Rows)-1, i+keep); j++ {
				v[j] = true
			}
		}
	}
	// Folding fewer than three rows saves nothing.
	for i := 0; i < len(v); i++ {
		if v[i] {
			continue
		}
		j := i
		for j < len(v) && !v[j] {
			j++
		}
		if j-i < 3 {
			for k := i; k < j; k++ {
				v[k] = true
			}
		}
		i = j
	}
	return v
}

func anyCell(rows []Row, cell func(Row) string) bool {
	for _, r := range rows {
		if cell(r) != "" {
			return true
		}
	}
	return false
}

func cellOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
