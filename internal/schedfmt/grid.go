package schedfmt

import "strings"

// Grid is a table of free-form columns printed by the rules of [Table]: a
// header line, a two-character gutter ("> " on marked rows), columns two
// spaces apart, "  <-- reason" after a marked row, "-" for an empty cell,
// no trailing spaces and "\n" after every line. It prints the tables that
// are not schedules: a scripted transport's replies and requests, a
// ledger's keys, a classifier's cases, a parser's wrong corpus cases.
type Grid struct {
	// Header names the columns.
	Header []string
	// Rows are the lines under the header.
	Rows []GridRow
	// Indent precedes every line, gutter included.
	Indent string
}

// GridRow is one row of a [Grid].
type GridRow struct {
	Cells  []string // one per column; a missing or empty cell prints as "-"
	Marked bool     // the row gets the "> " gutter
	Reason string   // printed after the row as "  <-- reason" when Marked
}

// String renders the grid: a header line and one line per row, each
// ending in "\n".
func (g Grid) String() string {
	widths := make([]int, len(g.Header))
	for i, h := range g.Header {
		widths[i] = width(h)
	}
	cells := make([][]string, len(g.Rows))
	for r, row := range g.Rows {
		cells[r] = make([]string, len(g.Header))
		for i := range g.Header {
			s := ""
			if i < len(row.Cells) {
				s = row.Cells[i]
			}
			cells[r][i] = cellOrDash(s)
			widths[i] = max(widths[i], width(cells[r][i]))
		}
	}
	var b strings.Builder
	writeLine(&b, g.Indent, "  ", g.Header, widths, "")
	for r, row := range g.Rows {
		gutter, reason := "  ", ""
		if row.Marked {
			gutter, reason = "> ", row.Reason
		}
		writeLine(&b, g.Indent, gutter, cells[r], widths, reason)
	}
	return b.String()
}
