package main

import (
	"fmt"
	"strings"
)

// writeTable writes rows to b as columns, each as wide as its widest cell
// and one space apart, every line indented by two spaces and without
// trailing blanks: the comparison tables of both reports.
func writeTable(b *strings.Builder, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range rows {
		line := " "
		for i, c := range r {
			line += fmt.Sprintf(" %-*s", widths[i]+1, c)
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
}
