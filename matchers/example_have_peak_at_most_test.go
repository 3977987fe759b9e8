package matchers_test

import (
	"math/rand/v2"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// A batch of 2,000 jobs fails together at the start of a 30-minute outage
// and retries every minute: when the endpoint recovers, all of them arrive
// in its first minute, over the 600 it absorbs.
func ExampleHavePeakAtMost() {
	g := newGomega()
	everyMinute := func(failed int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: failed < 100, Delay: time.Minute}
	}
	load, err := policysim.Fleet{Name: "batch", Jobs: 2000, Outage: 30 * time.Minute, AllAtOnce: true, Decide: everyMinute}.Simulate()
	g.Expect(err).NotTo(gomega.HaveOccurred())
	g.Expect(load).To(matchers.HavePeakAtMost(600))
	// Output:
	// Expected
	//     batch: requests per 1m after recovery from a 30m outage (2000 jobs)
	//       2000 |#
	//            |#
	//            |#
	//            |#
	//            |#
	//            |#
	//            |#
	//        600 |#-----------------------------------------------------------
	//            |#
	//            |#
	//            |#
	//          0 +----------+---------+---------+---------+---------+---------
	//             0s        10m       20m       30m       40m       50m
	//             ^ peak 2000 in [0s, 1m)
	// to have a peak of at most 600 requests per 1m: peak = 2000 requests in [0s, 1m) after recovery, want at most 600
}
