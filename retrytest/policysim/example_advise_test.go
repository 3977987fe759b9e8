package policysim_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// Seed 000's fixed policy sends 710 requests in the first minute after a
// two-hour outage to an endpoint that absorbs 600. Advise finds the
// nearest policies that keep 10% of the capacity free and give up on no
// more jobs than the fixed one. A test asserts that its policy passes its
// own fleet, and prints the advice when it does not:
//
//	if load.Peak > capacity {
//		advice, err := policysim.Advise(fleet, policy, policysim.Search{})
//		t.Fatalf("%s\n%v%v", load.Summary(), advice, err)
//	}
func ExampleAdvise() {
	fixed := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	fleet := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Seed: 7, Capacity: 600}
	advice, err := policysim.Advise(fleet, fixed, policysim.Search{MaxGaveUp: policysim.GaveUpAsBase})
	if err != nil {
		panic(err)
	}
	fmt.Print(advice)
	// Output:
	// base 5s doubling, full jitter under a 1h cap, 13 attempts (12 retries): peak 710, 2022 gave up; want a peak of at most 540, at most 2022 given up
	// 1. First+Growth: 15s x4, full jitter under a 1h cap, 13 attempts (12 retries): peak 525, drained after 58m55s, 1 gave up
	// 2. Growth+Jitter: 5s x3, equal jitter under a 1h cap, 13 attempts (12 retries): peak 478, drained after 59m32s, 0 gave up
	// 3. First+Growth: 20s x4, full jitter under a 1h cap, 13 attempts (12 retries): peak 529, drained after 59m21s, 0 gave up
}

// Keeping the growth and the jitter, no First, Cap and attempt count in
// the search brings the peak down to 540 without giving up on a job: the
// error says what was searched and the nearest miss.
func ExampleAdvise_noPolicy() {
	fixed := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	fleet := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Seed: 7, Capacity: 600}
	_, err := policysim.Advise(fleet, fixed, policysim.Search{Keep: policysim.DimGrowth | policysim.DimJitter})
	fmt.Println(errors.Is(err, policysim.ErrNoAdvice))
	fmt.Println(err)
	// Output:
	// true
	// policysim: Advise: no policy meets the limits: of the policies around the base policy, keeping Growth+Jitter (57 simulations), none sends at most 540 requests per 1m and gives up on at most 0 jobs; the nearest, 20s doubling, full jitter under a 4h cap, 14 attempts (13 retries): peak 604, 0 gave up
}
