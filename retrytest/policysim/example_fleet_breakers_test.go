package policysim_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// Seed 000's outage, the seed's fixed policy, the 11,000 jobs split over
// 100 clients, each with sony/gobreaker's default breaker: during the
// outage each client sends its first six failures and then one probe a
// minute, a trickle beside the retries that reach the endpoint without.
func ExampleFleet_breakers() {
	fixed := retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	f := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: fixed.Decide, Seed: 7}
	without, _ := f.Simulate()
	f.Clients = 100
	f.Breaker = &retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}
	with, _ := f.Simulate()
	for _, l := range []*policysim.Load{without, with} {
		fmt.Printf("during the outage %6d requests, %6d refused; after it a peak of %d a minute\n", l.OutageRequests, l.Refused, l.Peak)
	}
	// Output:
	// during the outage 119652 requests,      0 refused; after it a peak of 710 a minute
	// during the outage  11072 requests, 108974 refused; after it a peak of 552 a minute
}
