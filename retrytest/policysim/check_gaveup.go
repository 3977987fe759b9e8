package policysim

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// DefaultMaxGaveUpShare is the share of a fleet's jobs a policy may give
// up on and still pass: 1%. A policy that keeps the recovering endpoint
// under its capacity by abandoning the work has not passed; hold a fleet
// to both, [CheckPeakAtMost] and [CheckGaveUpAtMost] with
// MaxGaveUp(jobs, DefaultMaxGaveUpShare).
const DefaultMaxGaveUpShare = 0.01

// MaxGaveUp returns the most of jobs that may give up at share, a
// fraction from 0 to 1, rounded down: 110 of 11,000 at
// DefaultMaxGaveUpShare, so 110 pass and 111 fail. It panics on a share
// outside [0, 1] or a negative jobs.
func MaxGaveUp(jobs int, share float64) int {
	if !(share >= 0 && share <= 1) || jobs < 0 {
		panic(fmt.Sprintf("policysim: MaxGaveUp(%d, %v): want jobs >= 0 and a share from 0 to 1", jobs, share))
	}
	// Round to a billionth before flooring: a product such as 100·0.29,
	// 28.999999999999996 in floating point, is 29 jobs.
	return int(math.Floor(math.Round(float64(jobs)*share*1e9) / 1e9))
}

// CheckGaveUpAtMost checks that at most max of got's jobs gave up: that
// the policy carried the fleet's work through the outage instead of
// abandoning it. It is the check that goes with [CheckPeakAtMost]:
//
//	policysim.AssertPeakAtMost(t, load, 600)
//	policysim.AssertGaveUpAtMost(t, load, policysim.MaxGaveUp(load.Fleet.Jobs, policysim.DefaultMaxGaveUpShare))
//
// It returns nil, a [*GaveUpError] saying how many gave up and when, or
// an error for input it cannot check (a nil load, a negative max).
func CheckGaveUpAtMost(got *Load, max int) error {
	switch {
	case got == nil:
		return errors.New("policysim: CheckGaveUpAtMost: got a nil *Load")
	case max < 0:
		return fmt.Errorf("policysim: CheckGaveUpAtMost: max %d, want >= 0", max)
	case got.GaveUp <= max:
		return nil
	}
	return &GaveUpError{Load: got, Max: max}
}

// AssertGaveUpAtMost is [CheckGaveUpAtMost] reported through t.Errorf. It
// returns whether the check passed.
func AssertGaveUpAtMost(t retrytest.TestingT, got *Load, max int) bool {
	t.Helper()
	if err := CheckGaveUpAtMost(got, max); err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}

// GaveUpError is the error [CheckGaveUpAtMost] returns when more of a
// fleet's jobs gave up than allowed. Its text is a summary line and a line
// saying when they gave up:
//
//	policysim: 7854 of 11000 jobs (71.4%) gave up, want at most 110
//	fixed: all 7854 gave up before the endpoint recovered: the policy's attempts end before the 2h outage does
type GaveUpError struct {
	// Load is the load that failed the check.
	Load *Load
	// Max is the most jobs that may give up.
	Max int
}

// Error returns the summary line, prefixed with "policysim: ", and Why.
func (e *GaveUpError) Error() string {
	return "policysim: " + e.Summary() + "\n" + e.Load.name() + ": " + e.Why()
}

// Summary states the violation on one line, got before want, without the
// package prefix: "7854 of 11000 jobs (71.4%) gave up, want at most 110".
func (e *GaveUpError) Summary() string {
	return fmt.Sprintf("%d of %d jobs (%s) gave up, want at most %d", e.Load.GaveUp, e.Load.Fleet.Jobs, share(e.Load.GaveUp, e.Load.Fleet.Jobs), e.Max)
}

// Why says when the jobs gave up: before the endpoint recovered (the
// policy's attempts end before the outage does), or after it, in
// overloaded buckets.
func (e *GaveUpError) Why() string {
	l := e.Load
	outage := schedfmt.Duration(l.Fleet.Outage)
	after := l.GaveUp - l.GaveUpInOutage
	switch {
	case after == 0:
		return fmt.Sprintf("all %d gave up before the endpoint recovered: the policy's attempts end before the %s outage does", l.GaveUp, outage)
	case l.GaveUpInOutage == 0:
		return fmt.Sprintf("all %d gave up after the endpoint recovered, their requests failed by overloaded buckets", l.GaveUp)
	}
	return fmt.Sprintf("%d gave up before the endpoint recovered (the policy's attempts end before the %s outage does), %d after it, their requests failed by overloaded buckets",
		l.GaveUpInOutage, outage, after)
}

// share formats n of total as a percentage: "71.4%", "0.9%", "under
// 0.1%" for a few, "0%" for none.
func share(n, total int) string {
	if n == 0 || total <= 0 {
		return "0%"
	}
	p := 100 * float64(n) / float64(total)
	if p < 0.05 {
		return "under 0.1%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}
