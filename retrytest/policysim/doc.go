// Package policysim runs pure retry policies: one job through every
// attempt ([Run]), or a whole fleet of jobs through an outage ([Fleet]), so
// that a test sees the schedule a policy makes and the load a recovering
// server receives. A policy is a [retrytest.DecideFunc], func(failed int,
// o retrytest.Outcome, rng *rand.Rand) retrytest.Decision: a team's own
// decide function, or the Decide method of a declared [retrytest.Policy];
// every job is handed a transient failure, a 503 with no header.
//
//	policy := retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
//	load, err := policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: policy.Decide, Seed: 7, Capacity: 600}.Simulate()
//	if err != nil {
//		t.Fatal(err)
//	}
//	policysim.AssertPeakAtMost(t, load, 600)
//
// # One job
//
// [Run] calls the policy after every failed attempt with a seeded source
// (the stream of seqrand.Seeded) and [RunRand] with a source of your own,
// such as an endpoint source, until the policy gives up. The [Job] they
// return is a retrytest.Schedule: the checks of package retrytest read it
// directly. A policy that never gives up is cut at [DefaultAttemptLimit]
// attempts with an error wrapping [ErrRunaway].
//
// # A fleet
//
// Per-job correctness does not guarantee fleet behaviour. [Fleet.Simulate]
// spreads the jobs' first failures over the outage (or starts them all at
// once), lets every job retry as its policy says, and returns the [Load]
// the endpoint receives after it recovers: requests per bucket, the peak,
// the time until the backlog drains, the jobs recovered and given up. With
// Overload the endpoint also fails every bucket over its Capacity, as a
// server falls over under a storm. With Clients and a Breaker (a
// retrytest.Breaker), the jobs split over clients whose circuit breakers
// each see all their jobs' attempts in time order, and the Load counts the
// requests during the outage as well as after it. The simulation is
// deterministic for a seed and, without Overload or Clients, streams: a
// million jobs of a dozen attempts take well under a second, in memory
// that does not grow with the jobs.
//
// [CheckPeakAtMost] holds the peak to what the endpoint absorbs; its
// failure is the load as a text chart with the capacity line the offending
// bars cross. [CheckGaveUpAtMost] holds the jobs given up to a limit,
// [MaxGaveUp] of them at [DefaultMaxGaveUpShare] (1%): a policy that keeps
// the peak low by abandoning the work has not passed, and the failure
// says when the jobs gave up (their attempts ended before the outage
// did, or overloaded buckets failed them after it). [Load.Chart] draws that chart alone, and [WriteSVG] draws
// several loads side by side for a design review.
//
// # Advice
//
// When a policy fails its fleet, [Advise] searches the policies around it
// (First, Growth, Cap, jitter, attempts, or only some of them) for the
// nearest ones that keep the peak under 90% of the capacity without giving
// up on more jobs, and returns the best few with their loads. Seed 000's
// scenario, old policy against fixed against advised, is
// "go run ./examples/fleetsim".
package policysim
