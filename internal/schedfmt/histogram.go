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
	barW := h.Width
	if barW <= 0 {
		barW = BarWidth
	}
	widths, most := []int{width("bucket"), width("count")}, 0
	for _, b := range h.Bars {
		widths[0] = max(widths[0], width(b.Label))
		widths[1] = max(widths[1], width(strconv.Itoa(b.Count)))
		most = max(most, b.Count)
	}
	var out strings.Builder
	writeLine(&out, h.Indent, "  ", []string{"bucket", "count", ""}, widths, "")
	for _, b := range h.Bars {
		n := 0
		if most > 0 && b.Count > 0 {
			n = max(1, (b.Count*barW+most/2)/most)
		}
		gutter, reason := "  ", ""
		if b.Marked {
			gutter, reason = "> ", b.Reason
		}
		writeLine(&out, h.Indent, gutter, []string{b.Label, strconv.Itoa(b.Count), strings.Repeat("#", n)}, widths, reason)
	}
	return out.String()
}
