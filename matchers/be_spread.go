package matchers

import (
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/retrytest"
)

// BeSpread succeeds if the delays of actual are spread over spec.Range
// with no spike: every delay in the range, every bucket below
// spec.MaxRatio × the mean count, and both end buckets reached. The failure
// message is a histogram of the buckets with the first offending one
// marked. It is [retrytest.CheckSpread] as a matcher, and reads the same
// actual types as [HaveDelays].
//
//	Expect(atCap).To(BeSpread(retrytest.Spread{
//		Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}))
//
// A spec it cannot use (an empty range, a width that does not divide it, a
// ratio <= 1) makes Match return an error.
func BeSpread(spec retrytest.Spread) types.GomegaMatcher {
	sp, invalid := schedcheck.NormalizeSpread(schedcheck.SpreadSpec{
		Range:       schedcheck.Window(spec.Range),
		Buckets:     spec.Buckets,
		BucketWidth: spec.BucketWidth,
		MaxRatio:    spec.MaxRatio,
	})
	return &scheduleMatcher{
		name:    "BeSpread",
		phrase:  "be spread over " + spec.Range.String(),
		invalid: invalid,
		run:     func(s schedcheck.Schedule) *schedcheck.Report { return schedcheck.Spread(s, sp) },
	}
}
