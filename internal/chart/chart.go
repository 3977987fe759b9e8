package chart

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// MaxColumns is the most columns a text chart's plot area uses: with the
// y labels in front, a chart fits in 80 columns.
const MaxColumns = 64

// Rows is the height of a text chart's plot area, in lines, not counting
// the capacity line.
const Rows = 10

// tickEvery is the number of columns between two ticks of the time axis.
const tickEvery = 10

// Chart is one series of request counts per time bucket.
type Chart struct {
	// Title is printed above the chart.
	Title string
	// Counts holds the requests in each bucket; bucket k covers
	// [k·Bucket, (k+1)·Bucket) after recovery.
	Counts []int
	// Bucket is the width of one bucket. It must be > 0.
	Bucket time.Duration
	// Capacity draws a line at that many requests per bucket; 0 draws none.
	Capacity int
	// Span is how many buckets the time axis covers, so that charts drawn
	// together share their axis. It is raised to len(Counts) when shorter.
	Span int
}

// layout is what both renderers derive from a Chart.
type layout struct {
	span, perCol, cols int
	columns            []int // the busiest bucket of each column
	peak, peakBucket   int
	top                int // the value at the top of the y axis
}

func (c Chart) layout(maxCols int) layout {
	var l layout
	l.span = max(c.Span, len(c.Counts), 1)
	l.perCol = (l.span + maxCols - 1) / maxCols
	l.cols = (l.span + l.perCol - 1) / l.perCol
	l.columns = make([]int, l.cols)
	for k, n := range c.Counts {
		col := k / l.perCol
		l.columns[col] = max(l.columns[col], n)
		if n > l.peak {
			l.peak, l.peakBucket = n, k
		}
	}
	l.top = max(l.peak, c.Capacity, 1)
	return l
}

// PeakLabel describes the peak as the charts print it: "peak 722 in
// [0s, 1m)", or "no requests" when every bucket is empty.
func (c Chart) PeakLabel() string { return c.peakLabel(c.layout(MaxColumns)) }

// peakLabel is PeakLabel from a layout already made; the peak does not
// depend on the layout's width.
func (c Chart) peakLabel(l layout) string {
	if l.peak == 0 {
		return "no requests"
	}
	return fmt.Sprintf("peak %d in %s", l.peak, BucketLabel(l.peakBucket, c.Bucket))
}

// BucketLabel formats bucket k of width d as the half-open interval it
// covers after recovery: "[2m, 3m)".
func BucketLabel(k int, d time.Duration) string {
	return "[" + schedfmt.Duration(time.Duration(k)*d) + ", " + schedfmt.Duration(time.Duration(k+1)*d) + ")"
}
