package retrytest

import (
	"strings"
	"unicode/utf8"
)

// textTable renders the small tables of the harnesses (scripts, ledgers,
// classification cases) by the rules of the schedule table: a header line,
// a two-character gutter ("> " on marked rows), columns two spaces apart,
// an optional "  <-- reason" after a marked row, no trailing spaces and
// "\n" after every line. Empty cells print as "-".
type textTable struct {
	header []string
	rows   []textRow
}

type textRow struct {
	cells  []string
	marked bool
	reason string
}

func (t *textTable) add(cells ...string) { t.rows = append(t.rows, textRow{cells: cells}) }

func (t *textTable) addMarked(marked bool, reason string, cells ...string) {
	if !marked {
		reason = ""
	}
	t.rows = append(t.rows, textRow{cells: cells, marked: marked, reason: reason})
}

// render returns the table with indent before every line.
func (t *textTable) render(indent string) string {
	widths := make([]int, len(t.header))
	cell := func(cells []string, i int) string {
		if i >= len(cells) || cells[i] == "" {
			return "-"
		}
		return cells[i]
	}
	for i, h := range t.header {
		widths[i] = utf8.RuneCountInString(h)
		for _, r := range t.rows {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell(r.cells, i)))
		}
	}
	var b strings.Builder
	line := func(gutter string, cells func(int) string, reason string) {
		var l strings.Builder
		l.WriteString(indent)
		l.WriteString(gutter)
		for i := range t.header {
			s := cells(i)
			if i > 0 {
				l.WriteString("  ")
			}
			l.WriteString(s)
			if i < len(t.header)-1 {
				l.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(s)))
			}
		}
		if reason != "" {
			l.WriteString("  <-- ")
			l.WriteString(reason)
		}
		b.WriteString(strings.TrimRight(l.String(), " \t"))
		b.WriteByte('\n')
	}
	line("  ", func(i int) string { return t.header[i] }, "")
	for _, r := range t.rows {
		gutter := "  "
		if r.marked {
			gutter = "> "
		}
		line(gutter, func(i int) string { return cell(r.cells, i) }, r.reason)
	}
	return b.String()
}

// cutText keeps at most n runes of s, marking a cut with "…", after
// oneLineCell, so that a long error or body stays one short cell.
func cutText(s string, n int) string {
	s = oneLineCell(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// oneLineCell replaces line breaks and tabs so that s fits in a table cell.
func oneLineCell(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}
