package retrytest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrykit/retrykit/internal/chart"
)

// CheckPeakAtMost checks that no bucket of got received more than
// capacity requests: that the endpoint recovering from the outage is never
// sent more than it absorbs per bucket (per minute, by default). It is
// the assertion of seed 000's test_recovery_load_is_bounded:
//
//	load, err := retrytest.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Policy: policy, Seed: 7}.Simulate()
//	if err != nil {
//		t.Fatal(err)
//	}
//	retrytest.AssertPeakAtMost(t, load, 600)
//
// It returns nil, a [*PeakError] whose text is the load's chart with a
// line at capacity and the peak marked, or an error for input it cannot
// check (a nil load, a negative capacity).
func CheckPeakAtMost(got *FleetLoad, capacity int) error {
	switch {
	case got == nil:
		return errors.New("retrytest: CheckPeakAtMost: got a nil *FleetLoad")
	case capacity < 0:
		return fmt.Errorf("retrytest: CheckPeakAtMost: capacity %d, want >= 0", capacity)
	case got.Peak <= capacity:
		return nil
	}
	return &PeakError{Load: got, Capacity: capacity}
}

// AssertPeakAtMost is [CheckPeakAtMost] reported through t.Errorf. It
// returns whether the check passed.
func AssertPeakAtMost(t TestingT, got *FleetLoad, capacity int) bool {
	t.Helper()
	return report(t, CheckPeakAtMost(got, capacity))
}

// RequirePeakAtMost is [AssertPeakAtMost] followed by t.FailNow on
// failure. It must be called from the goroutine running the test.
func RequirePeakAtMost(t TestingT, got *FleetLoad, capacity int) {
	t.Helper()
	if !AssertPeakAtMost(t, got, capacity) {
		t.FailNow()
	}
}

// PeakError is the error [CheckPeakAtMost] returns when a bucket of a
// fleet's load holds more requests than the capacity. Its text is a
// summary line, then the load's chart with the capacity line, which the
// bars over capacity cross, and the peak marked:
//
//	retrytest: peak = 11000 requests in [0s, 1m) after recovery, want at most 600
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
	Load *FleetLoad
	// Capacity is the most requests a bucket may hold.
	Capacity int
}

// Error returns the summary line, prefixed with "retrytest: ", and the
// chart.
func (e *PeakError) Error() string {
	return "retrytest: " + e.Summary() + "\n" + strings.TrimSuffix(e.Load.Chart(e.Capacity), "\n")
}

// Summary states the violation on one line, got before want, without the
// package prefix: "peak = 11000 requests in [0s, 1m) after recovery, want
// at most 600".
func (e *PeakError) Summary() string {
	return fmt.Sprintf("peak = %d requests in %s after recovery, want at most %d",
		e.Load.Peak, chart.BucketLabel(e.Load.PeakBucket, e.Load.Fleet.Bucket), e.Capacity)
}
