package policysim_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// 11,000 webhook jobs fail during a two-hour outage, and the endpoint
// absorbs 600 requests a minute once it recovers. The fixed policy (full
// jitter under a one-hour cap, 12 retries) spreads the recoveries over an
// hour; its first minute still receives more than 600, and 18% of the jobs
// give up before the endpoint is back.
func ExampleFleet_Simulate() {
	fixed := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	load, err := policysim.Fleet{Name: "fixed", Jobs: 11000, Outage: 2 * time.Hour, Decide: fixed.Decide, Seed: 7}.Simulate()
	if err != nil {
		panic(err)
	}
	fmt.Println(load.Summary())
	fmt.Println("first 5 minutes:", load.Buckets[:5])
	fmt.Println("recovered:", load.Recovered, "requests:", load.Requests)
	// Output:
	// fixed: 11000 jobs, 2h outage: peak 710 in [0s, 1m) after recovery, drained after 59m21s, 2022 gave up
	// first 5 minutes: [710 508 402 386 379]
	// recovered: 8978 requests: 128630
}

// The incident: jitter added before a 60s cap puts every job still
// retrying at recovery on the same one-minute rhythm, and all of them
// arrive in the first minute.
func ExampleCheckPeakAtMost() {
	old := func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		if failed >= 199 {
			return retrytest.Decision{Reason: "exhausted"}
		}
		jitter := time.Duration(rng.Int64N(int64(5*time.Second) + 1))
		return retrytest.Decision{Retry: true, Delay: min(time.Minute, 5*time.Second<<min(failed, 20)+jitter)}
	}
	load, err := policysim.Fleet{Name: "old", Jobs: 11000, Outage: 2 * time.Hour, Decide: old, Seed: 7}.Simulate()
	if err != nil {
		panic(err)
	}
	fmt.Println(policysim.CheckPeakAtMost(load, 600))
	// Output:
	// policysim: peak = 11000 requests in [0s, 1m) after recovery, want at most 600
	// old: requests per 1m after recovery from a 2h outage (11000 jobs)
	//   11000 |#
	//         |#
	//         |#
	//         |#
	//         |#
	//         |#
	//         |#
	//         |#
	//         |#
	//     600 |#-----------------------------------------------------------
	//         |#
	//       0 +----------+---------+---------+---------+---------+---------
	//          0s        10m       20m       30m       40m       50m
	//          ^ peak 11000 in [0s, 1m)
}

// With Overload, the endpoint also fails every request of a minute that
// receives more than its capacity. A fleet that fails in step never gets
// through: the same 500 jobs come back every minute until they give up.
func ExampleFleet_Simulate_overload() {
	every30s := retrytest.Policy{First: 30 * time.Second, Growth: 1, Attempts: 10}
	load, err := policysim.Fleet{Name: "batch", Jobs: 500, AllAtOnce: true, Decide: every30s.Decide, Capacity: 400, Overload: true}.Simulate()
	if err != nil {
		panic(err)
	}
	fmt.Println(load.Summary())
	fmt.Println(load.Buckets)
	// Output:
	// batch: 500 jobs, 0s outage: peak 1000 in [0s, 1m) after recovery, drained after 4m30s, 500 gave up, 5 buckets overloaded
	// [1000 1000 1000 1000 1000]
}

// A declared policy's Decide method is a pure policy: Run runs it as a
// retry loop would, every attempt failing, until it gives up.
func ExampleRun() {
	p := retrytest.Policy{First: time.Second, Growth: 2, Jitter: retrytest.EqualJitter, Attempts: 4}
	job, err := policysim.Run(p.Decide, 1)
	if err != nil {
		panic(err)
	}
	for failed, d := range job.Decisions {
		fmt.Printf("after attempt %d: retry %v, reason %q\n", failed+1, d.Retry, d.Reason)
	}
	// Output:
	// after attempt 1: retry true, reason "backoff"
	// after attempt 2: retry true, reason "backoff"
	// after attempt 3: retry true, reason "backoff"
	// after attempt 4: retry false, reason "exhausted"
}

func ExampleWriteSVG() {
	p := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	load, err := policysim.Fleet{Name: "fixed", Jobs: 1000, Outage: 2 * time.Hour, Decide: p.Decide, Capacity: 60}.Simulate()
	if err != nil {
		panic(err)
	}
	var svg strings.Builder // an *os.File in real use
	if err := policysim.WriteSVG(&svg, load); err != nil {
		panic(err)
	}
	fmt.Println(strings.SplitN(svg.String(), "\n", 2)[0])
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="480" height="300" viewBox="0 0 480 300" font-family="sans-serif" font-size="12">
}
