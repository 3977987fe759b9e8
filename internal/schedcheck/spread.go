package schedcheck

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// SpreadSpec says how delays must be spread over a range.
type SpreadSpec struct {
	Range       Window
	Buckets     int
	BucketWidth time.Duration
	MaxRatio    float64
}

// Defaults for a SpreadSpec's zero fields.
const (
	DefaultBuckets  = 10
	DefaultMaxRatio = 2.0
)

// NormalizeSpread fills in defaults and rejects an impossible spec.
func NormalizeSpread(sp SpreadSpec) (SpreadSpec, error) {
	r := sp.Range
	if r.Min < 0 || r.Max <= r.Min {
		return sp, badArgument("range %s, want 0s <= Min < Max", r)
	}
	span := r.Max - r.Min
	if sp.Buckets < 0 {
		return sp, badArgument("%d buckets, want a count >= 1", sp.Buckets)
	}
	if sp.BucketWidth < 0 {
		return sp, badArgument("bucket width %s, want a width > 0s", dur(sp.BucketWidth))
	}
	if sp.BucketWidth > 0 {
		if span%sp.BucketWidth != 0 {
			return sp, badArgument("bucket width %s does not divide the range %s (%s) evenly", dur(sp.BucketWidth), r, dur(span))
		}
		n := span / sp.BucketWidth
		if sp.Buckets != 0 && time.Duration(sp.Buckets) != n {
			return sp, badArgument("%d buckets of %s do not cover the range %s, want %d buckets", sp.Buckets, dur(sp.BucketWidth), r, n)
		}
		if n > math.MaxInt32 {
			return sp, badArgument("bucket width %s makes %d buckets over %s, want at most %d", dur(sp.BucketWidth), n, r, math.MaxInt32)
		}
		sp.Buckets = int(n)
	}
	if sp.Buckets == 0 {
		sp.Buckets = DefaultBuckets
	}
	if time.Duration(sp.Buckets) > span {
		return sp, badArgument("%d buckets over %s are narrower than 1ns", sp.Buckets, r)
	}
	if sp.MaxRatio == 0 {
		sp.MaxRatio = DefaultMaxRatio
	}
	if math.IsNaN(sp.MaxRatio) || sp.MaxRatio <= 1 {
		return sp, badArgument("max ratio %v, want a ratio > 1", sp.MaxRatio)
	}
	return sp, nil
}

// Spread checks that the delays of s (the waits before attempts 2, 3, …)
// are spread over sp.Range: every delay is in the range, no bucket holds
// sp.MaxRatio times the mean count or more, and the shortest delay falls in
// the first bucket and the longest in the last. Violations come in that
// order, so a spike is the bucket marked. sp must come from
// NormalizeSpread.
func Spread(s Schedule, sp SpreadSpec) *Report {
	if s.Untimed != "" {
		return untimed(s, -1, nil)
	}
	r, n := sp.Range, sp.Buckets
	span := r.Max - r.Min
	edge := func(k int) time.Duration { // the lower edge of bucket k
		hi, lo := bits.Mul64(uint64(span), uint64(k))
		q, _ := bits.Div64(hi, lo, uint64(n))
		return r.Min + time.Duration(q)
	}
	counts := make([]int, n)
	var vs []Violation
	var delays []time.Duration
	for _, a := range s.Attempts[min(1, len(s.Attempts)):] {
		delays = append(delays, a.Delay)
	}
	outside, firstOut, firstOutAt := 0, time.Duration(0), 0
	shortest, longest := time.Duration(math.MaxInt64), time.Duration(-1)
	for k, d := range delays {
		if !r.Contains(d) {
			if outside == 0 {
				firstOut, firstOutAt = d, k+2
			}
			outside++
			continue
		}
		hi, lo := bits.Mul64(uint64(d-r.Min), uint64(n))
		q, _ := bits.Div64(hi, lo, uint64(span))
		counts[min(int(q), n-1)]++
		shortest, longest = min(shortest, d), max(longest, d)
	}
	in := len(delays) - outside
	if outside > 0 {
		verb := "are"
		if outside == 1 {
			verb = "is"
		}
		vs = append(vs, Violation{
			Attempt: firstOutAt,
			Text:    fmt.Sprintf("%d of %d delays %s outside %s: the first is %s, delay %d", outside, len(delays), verb, r, dur(firstOut), firstOutAt-1),
			Final:   true,
		})
	}
	if len(delays) == 0 {
		vs = append(vs, Violation{Text: "no delays to check"})
	}
	bars := make([]schedfmt.Bar, n)
	mean := float64(in) / float64(n)
	for k := range bars {
		bars[k] = schedfmt.Bar{Label: bucketLabel(edge(k), edge(k+1), k == n-1), Count: counts[k]}
	}
	mark := func(k int, text, reason string) {
		bars[k].Reason = reason
		vs = append(vs, Violation{Text: text, Reason: reason, row: k + 1})
	}
	if in > 0 {
		for k, c := range counts {
			if float64(c) >= sp.MaxRatio*mean {
				mark(k, fmt.Sprintf("bucket %s holds %d of %d delays, want fewer than %s (%sx the mean %s)",
					bars[k].Label, c, in, ratio(sp.MaxRatio*mean), ratio(sp.MaxRatio), ratio(mean)),
					fmt.Sprintf("%sx the mean", ratio(float64(c)/mean)))
			}
		}
		if counts[0] == 0 {
			mark(0, fmt.Sprintf("the shortest delay %s is not in the first bucket %s", dur(shortest), bars[0].Label),
				"empty: the shortest delay is "+dur(shortest))
		}
		if counts[n-1] == 0 {
			mark(n-1, fmt.Sprintf("the longest delay %s is not in the last bucket %s", dur(longest), bars[n-1].Label),
				"empty: the longest delay is "+dur(longest))
		}
	}
	title := fmt.Sprintf("%s in %d buckets over %s", schedfmt.Count(len(delays), "delay"), n, r)
	if span%time.Duration(n) == 0 {
		title = fmt.Sprintf("%s in %d buckets of %s over %s", schedfmt.Count(len(delays), "delay"), n, dur(span/time.Duration(n)), r)
	}
	return (&Report{Title: title, Violations: vs, Live: s.Live, bars: bars}).withNotes(s)
}

// bucketLabel is a bucket's range: half-open, "[0s, 5m)", except the last
// bucket, which holds the range's Max: "[55m, 1h]".
func bucketLabel(lo, hi time.Duration, last bool) string {
	if last {
		return schedfmt.Window(lo, hi)
	}
	return "[" + dur(lo) + ", " + dur(hi) + ")"
}

// ratio prints a count or ratio with at most one decimal: "2", "166.7".
func ratio(x float64) string {
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}
