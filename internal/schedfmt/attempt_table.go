package schedfmt

import "time"

// AttemptTable renders attempts as a schedule table: number, delay,
// offset and result.
func AttemptTable(at []time.Duration, results []string) string {
	rows := make([]Row, len(at))
	var prev time.Duration
	for i, a := range at {
		rows[i] = AttemptRow(i+1, a-prev, a, results[i])
		prev = a
	}
	return Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String()
}
