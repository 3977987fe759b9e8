package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// Spread says how a sample of delays must be spread for [CheckSpread]: the
// range is cut into equal buckets, and no bucket may hold a spike.
//
// The check behind "capped delays are spread, not synchronised": 2000
// draws at the cap of a full-jitter policy, 12 buckets of 5 minutes over
// [0s, 1h], no bucket holding twice the mean count or more:
//
//	retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}
type Spread struct {
	// Range is the interval the delays must cover, inclusive. 0 <= Min <
	// Max.
	Range Window
	// Buckets is the number of equal buckets Range is cut into. If 0, it
	// follows from BucketWidth, or is 10 when that is 0 too.
	Buckets int
	// BucketWidth is the width of one bucket; it must divide Range evenly.
	// Give Buckets or BucketWidth (or both, if they agree).
	BucketWidth time.Duration
	// MaxRatio bounds the fullest bucket: every bucket must hold fewer than
	// MaxRatio times the mean count. It must be > 1; 0 means 2.
	MaxRatio float64
}

// CheckSpread checks that the delays of got (the waits before attempts 2,
// 3, …; for a []time.Duration, every element) are spread over spec.Range:
// every delay is in the range, every bucket holds fewer than
// spec.MaxRatio × the mean count, and the shortest delay falls in the first
// bucket and the longest in the last, so the sample reaches both ends. A
// schedule with jitter added after the cap, where every delay lands on the
// cap, fails with one full bucket.
//
// It returns nil, a [*ScheduleError] whose Schedule is a histogram of the
// buckets with the first offending bucket marked, or an error for a spec it
// cannot use (an empty range, a width that does not divide it, a ratio <=
// 1) or input it cannot read.
func CheckSpread(got Schedule, spec Spread) error {
	sp, invalid := schedcheck.NormalizeSpread(schedcheck.SpreadSpec{
		Range:       schedcheck.Window(spec.Range),
		Buckets:     spec.Buckets,
		BucketWidth: spec.BucketWidth,
		MaxRatio:    spec.MaxRatio,
	})
	return check("CheckSpread", got, invalid, func(s schedcheck.Schedule) *schedcheck.Report {
		return schedcheck.Spread(s, sp)
	})
}

// AssertSpread is [CheckSpread] reported through t.Errorf. It returns
// whether the check passed.
func AssertSpread(t TestingT, got Schedule, spec Spread) bool {
	t.Helper()
	return report(t, CheckSpread(got, spec))
}
