// Package chart draws the load a fleet of retrying clients puts on a
// recovering server: requests per time bucket, a capacity line and the
// peak, as a text chart for terminals and test failures and as an SVG for
// design reviews.
//
// Both forms are deterministic: the same [Chart] always gives the same
// bytes, so golden files can pin them. The text chart is ASCII, fits in 80
// columns and has no trailing spaces; durations on its time axis are
// formatted by [github.com/retrykit/retrykit/internal/schedfmt.Duration].
// The SVG is written by hand, with no dependency beyond the standard
// library.
//
// # Reading a chart
//
// The x axis is time after recovery, one column per bucket (or per group
// of buckets, showing the busiest one, when there are more than
// [MaxColumns]). The y axis runs from 0 to the peak (or to the capacity,
// if that is higher). A bar crosses the capacity line exactly when its
// count is over the capacity, whatever the rounding of rows to characters.
package chart
