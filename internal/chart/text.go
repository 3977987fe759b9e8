package chart

import (
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Text renders the chart for a terminal or a test failure: the title, the
// plot with the capacity line, the time axis and a line pointing at the
// peak. Every line ends in "\n"; none has trailing spaces.
//
//	old: requests per 1m after recovery
//	  11000 |#
//	        |#
//	        ...
//	    600 |#-----------------------------------------------------------
//	        |#
//	      0 +---------+---------+---------+---------+---------+---------
//	         0s        10m       20m       30m       40m       50m
//	         ^ peak 11000 in [0s, 1m)
func (c Chart) Text() string {
	l := c.layout(MaxColumns)
	top := int64(l.top)
	line := -1 // the row boundary the capacity line sits on
	if c.Capacity > 0 {
		line = int((2*int64(c.Capacity)*Rows + top) / (2 * top))
	}
	topLabel, capLabel := strconv.Itoa(l.top), ""
	if c.Capacity > 0 {
		capLabel = strconv.Itoa(c.Capacity)
	}
	width := max(len(topLabel), len(capLabel))

	var b strings.Builder
	if c.Title != "" {
		b.WriteString(c.Title)
		b.WriteByte('\n')
	}
	row := func(label string, cell func(v int) byte) {
		b.WriteString(strings.Repeat(" ", width-len(label)+2))
		b.WriteString(label)
		b.WriteString(" |")
		cells := make([]byte, l.cols)
		for col, v := range l.columns {
			cells[col] = cell(v)
		}
		b.WriteString(strings.TrimRight(string(cells), " "))
		b.WriteByte('\n')
	}
	capacityRow := func() {
		row(capLabel, func(v int) byte {
			if v > c.Capacity {
				return '#'
			}
			return '-'
		})
	}
	for r := Rows; r >= 1; r-- {
		if r == line {
			capacityRow()
		}
		label := ""
		if r == Rows && (line != Rows || l.top != c.Capacity) {
			label = topLabel
		}
		floor := int64(r-1) * top // a bar reaches row r when v·Rows > floor
		above := line >= 0 && r > line
		row(label, func(v int) byte {
			if int64(v)*Rows > floor && (!above || v > c.Capacity) {
				return '#'
			}
			return ' '
		})
	}
	if line == 0 {
		capacityRow()
	}

	// The time axis: a tick every tickEvery columns, labelled with the
	// time after recovery at which its column starts.
	indent := strings.Repeat(" ", width+4)
	axis := []byte(strings.Repeat("-", l.cols))
	var labels []byte
	for col := 0; col < l.cols; col += tickEvery {
		if col > 0 {
			axis[col] = '+'
		}
		s := schedfmt.Duration(time.Duration(col*l.perCol) * c.Bucket)
		// Leave a label out when it would touch the previous one or run
		// past 80 columns.
		if col > 0 && len(labels)+1 > col || width+4+col+len(s) > 80 {
			continue
		}
		labels = append(labels, strings.Repeat(" ", col-len(labels))...)
		labels = append(labels, s...)
	}
	b.WriteString(strings.Repeat(" ", width+1))
	b.WriteString("0 +")
	b.Write(axis)
	b.WriteByte('\n')
	b.WriteString(indent)
	b.Write(labels)
	b.WriteByte('\n')

	if l.peak > 0 {
		col := l.peakBucket / l.perCol
		text := c.peakLabel(l)
		b.WriteString(indent)
		if len(indent)+col+2+len(text) <= 80 {
			b.WriteString(strings.Repeat(" ", col))
			b.WriteString("^ ")
			b.WriteString(text)
		} else {
			b.WriteString(strings.Repeat(" ", max(0, col-len(text)-1)))
			b.WriteString(text)
			b.WriteString(" ^")
		}
		b.WriteByte('\n')
	} else {
		b.WriteString(indent)
		b.WriteString("no requests\n")
	}
	return b.String()
}
