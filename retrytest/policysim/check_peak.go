package policysim

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrykit/retrykit/internal/chart"
	"github.com/retrykit/retrykit/retrytest"
)

// CheckPeakAtMost checks that no bucket of got received more than
// capacity requests: that the endpoint recovering from the outage is never
// sent more than it absorbs per bucket (per minute, by default). It is
// the assertion a fleet test makes:
//
//	load, err := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: policy.Decide, Seed: 7}.Simulate()
//	if err != nil {
//		t.Fatal(err)
//	}
//	policysim.AssertPeakAtMost(t, load, 600)
//
// It returns nil, a [*PeakError] whose text is the load's chart with a
// line at capacity and the peak marked, or an error for input it cannot
// check (a nil load, a negative capacity).
func CheckPeakAtMost(got *Load, capacity int) error {
	switch {
	case got == nil:
		return errors.New("policysim: CheckPeakAtMost: got a nil *Load")
	case capacity < 0:
		return fmt.Errorf("policysim: CheckPeakAtMost: capacity %d, want >= 0", capacity)
	case got.Peak <= capacity:
		return nil
	}
	return &PeakError{Load: got, Capacity: capacity}
}

// AssertPeakAtMost is [CheckPeakAtMost] reported through t.Errorf. It
// returns whether the check passed.
func AssertPeakAtMost(t retrytest.TestingT, got *Load, capacity int) bool {
	t.Helper()
	if err := CheckPeakAtMost(got, capacity); err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}

// PeakError is the error [CheckPeakAtMost] returns when a bucket of a
// fleet's load holds more requests than the capacity. Its text is a
// summary line, then the load's chart with the capacity line, which the
// bars over capacity cross, and the peak marked:
//
//	policysim: peak = 11000 requests in [0s, 1m) after recovery, want at most 600
//	old: requests per 1m after recovery from a 2h outage (11000 jobs)
//	  11000 |#
//	        |#
//	        ...
//	    600 |#-----------------------------------------------------------
//	        |#
//	      0 +---------+---------+---------+---------+---------+---------
//	         0s        10m       20m       30m       40m       50m
//	         ^ peak 11000 in [0s, 1m)
type PeakError struct {
	// Load is the load that failed the check.
	Load *Load
	// Capacity is the most requests a bucket may hold.
	Capacity int
}

// Error returns the summary line, prefixed with "policysim: ", and the
// chart.
func (e *PeakError) Error() string {
	return "policysim: " + e.Summary() + "\n" + strings.TrimSuffix(e.Load.Chart(e.Capacity), "\n")
}

// Summary states the violation on one line, got before want, without the
// package prefix: "peak = 11000 requests in [0s, 1m) after recovery, want
// at most 600".
func (e *PeakError) Summary() string {
	return fmt.Sprintf("peak = %d requests in %s after recovery, want at most %d",
		e.Load.Peak, chart.BucketLabel(e.Load.PeakBucket, e.Load.Fleet.Bucket), e.Capacity)
}
