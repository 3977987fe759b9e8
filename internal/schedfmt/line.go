package schedfmt

import (
	"strings"
	"unicode/utf8"
)

// writeLine writes one line of a table to b, by the rules every retrykit
// table follows: indent, the two-character gutter ("  ", or "> " on a
// marked row), the cells two spaces apart, each but the last padded to its
// column's width, then "  <-- reason" when reason is not empty, with no
// trailing spaces, and "\n". Every width must be at least the width of
// its cell.
func writeLine(b *strings.Builder, indent, gutter string, cells []string, widths []int, reason string) {
	var l strings.Builder
	l.WriteString(indent)
	l.WriteString(gutter)
	for i, s := range cells {
		if i > 0 {
			l.WriteString("  ")
		}
		l.WriteString(s)
		if i < len(cells)-1 {
			l.WriteString(strings.Repeat(" ", widths[i]-width(s)))
		}
	}
	s := strings.TrimRight(l.String(), " \t")
	if reason != "" {
		s = strings.TrimRight(s+"  <-- "+reason, " \t")
	}
	b.WriteString(s)
	b.WriteByte('\n')
}

// width is how many columns s takes in a fixed-width font: its runes, so
// that a cell cut short with "…" lines up like any other.
func width(s string) int { return utf8.RuneCountInString(s) }
