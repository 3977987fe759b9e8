package schedfmt

import (
	"strconv"
	"strings"
)

// BarWidth is the length, in characters, of the longest bar a [Histogram]
// draws when its Width is zero.
const BarWidth = 20

// Bar is one bucket of a [Histogram].
type Bar struct {
	Label  string // the bucket's range, for example "[0s, 5m)"
	Count  int    // how many values fell in the bucket
	Marked bool   // the first offending bucket gets the "> " gutter
	Reason string // printed after the bar as "  <-- reason" when Marked
}

// Histogram is a list of bucket counts ready to print, one line per bucket
// with a bar of '#' proportional to its count. It follows the rules of
// [Table]: a "> " gutter on the marked bucket, a trailing "  <-- reason",
// aligned columns and no trailing spaces.
type Histogram struct {
	Bars []Bar
	// Indent precedes every line, gutter included.
	Indent string
	// Width is the length of the bar of the fullest bucket; 0 means
	// BarWidth. Every bucket that holds anything gets at least one '#'.
	Width int
}

// String renders the histogram: a header line and one line per bucket,
// each ending in "\n".
func (h Histogram) String() string {
	width := h.Width
	if width <= 0 {
		width = BarWidth
	}
	labelW, countW, most := len("bucket"), len("count"), 0
	for _, b := range h.Bars {
		labelW = max(labelW, len(b.Label))
		countW = max(countW, len(strconv.Itoa(b.Count)))
		most = max(most, b.Count)
	}
	var out strings.Builder
	line := func(gutter, label, count, bar, reason string) {
		var l strings.Builder
		l.WriteString(h.Indent)
		l.WriteString(gutter)
		l.WriteString(label)
		l.WriteString(strings.Repeat(" ", labelW-len(label)+2))
		l.WriteString(count)
		l.WriteString(strings.Repeat(" ", countW-len(count)+2))
		l.WriteString(bar)
		s := strings.TrimRight(l.String(), " \t")
		if reason != "" {
			s = strings.TrimRight(s+"  <-- "+reason, " \t")
		}
		out.WriteString(s)
		out.WriteByte('\n')
	}
	line("  ", "bucket", "count", "", "")
	for _, b := range h.Bars {
		n := 0
		if most > 0 && b.Count > 0 {
			n = max(1, (b.Count*width+most/2)/most)
		}
		gutter, reason := "  ", ""
		if b.Marked {
			gutter, reason = "> ", b.Reason
		}
		line(gutter, b.Label, strconv.Itoa(b.Count), strings.Repeat("#", n), reason)
	}
	return out.String()
}
