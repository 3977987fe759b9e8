package policysim

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/chart"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// fleetMinSpan is the least time axis a chart of a fleet's load covers, in
// buckets, so that a load that ends in its first minute still reads as a
// spike against the hour after it.
const fleetMinSpan = 60

// String returns a one-line summary of the load followed by its text
// chart, with the capacity line of Fleet.Capacity.
func (l *Load) String() string {
	return l.Summary() + "\n" + l.Chart(l.Fleet.Capacity)
}

// Summary describes the load in one line: the fleet, the peak, the drain
// time (to the second) and the jobs that gave up.
//
//	fixed: 11000 jobs, 2h outage: peak 722 in [0s, 1m) after recovery, drained after 59m58s, 2041 gave up
func (l *Load) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d jobs, %s outage: ", l.name(), l.Fleet.Jobs, schedfmt.Duration(l.Fleet.Outage))
	if l.Peak == 0 {
		b.WriteString("no requests after recovery")
	} else {
		fmt.Fprintf(&b, "peak %d in %s after recovery, drained after %s",
			l.Peak, chart.BucketLabel(l.PeakBucket, l.Fleet.Bucket), schedfmt.Duration(l.DrainTime.Round(time.Second)))
	}
	fmt.Fprintf(&b, ", %d gave up", l.GaveUp)
	if l.Overloaded > 0 {
		fmt.Fprintf(&b, ", %d buckets overloaded", l.Overloaded)
	}
	return b.String()
}

// Chart draws the load after recovery as a text chart that fits in 80
// columns (a long Fleet.Name in its title aside): requests per bucket over
// time after recovery (at least 60 buckets, an hour of one-minute ones), a
// line at capacity (none if capacity is 0) that a bar crosses only when it
// holds more, and the peak marked. The text has no trailing spaces and
// does not vary between runs.
func (l *Load) Chart(capacity int) string {
	return l.chart(capacity, max(len(l.Buckets), fleetMinSpan)).Text()
}

func (l *Load) chart(capacity, span int) chart.Chart {
	title := fmt.Sprintf("%s: requests per %s after recovery from a %s outage (%d jobs)",
		l.name(), schedfmt.Duration(l.Fleet.Bucket), schedfmt.Duration(l.Fleet.Outage), l.Fleet.Jobs)
	return chart.Chart{Title: title, Counts: l.Buckets, Bucket: l.Fleet.Bucket, Capacity: capacity, Span: span}
}

func (l *Load) name() string {
	if l.Fleet.Name == "" {
		return "fleet"
	}
	return l.Fleet.Name
}

// WriteSVG writes the loads side by side as one SVG image, for a
// design review: one panel per load with its own y scale, its
// Fleet.Capacity as a dashed line, bars red above it, and the peak
// labelled. The panels share their time axis. The SVG is plain text with
// no external references, and the same loads always give the same bytes.
//
// It returns an error if a load is nil, or the error of the write.
func WriteSVG(w io.Writer, loads ...*Load) error {
	var span time.Duration
	for i, l := range loads {
		if l == nil {
			return fmt.Errorf("policysim: WriteSVG: load %d of %d is nil", i+1, len(loads))
		}
		span = max(span, time.Duration(max(len(l.Buckets), fleetMinSpan))*l.Fleet.Bucket)
	}
	if len(loads) == 0 {
		return errors.New("policysim: WriteSVG: no loads to draw")
	}
	charts := make([]chart.Chart, len(loads))
	for i, l := range loads {
		b := l.Fleet.Bucket
		c := l.chart(l.Fleet.Capacity, int((span+b-1)/b))
		c.Title = fmt.Sprintf("%s: requests per %s after recovery", l.name(), schedfmt.Duration(b))
		charts[i] = c
	}
	return chart.WriteSVG(w, charts...)
}
