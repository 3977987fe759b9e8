// Fleetsim shows what a retry policy does to a server recovering from an
// outage: seed 000, step 6, as a command. Per-job correctness does not
// guarantee fleet behaviour.
//
// With no flags it runs the seed's scenario: 11,000 webhook jobs fail
// during a two-hour outage, their first failures spread over it, and every
// retry after recovery succeeds. It prints the schedules of two policies
// and the requests the endpoint receives per minute after recovery, as
// charts, with the peaks and a verdict against the 600 requests a minute
// the endpoint absorbs:
//
//   - old, the incident's policy: 5s doubling with up to 5s of jitter added
//     before a 60s cap, min(60s, 5s·2^a + uniform(0, 5s)), so that from
//     the sixth attempt on every delay is exactly 60s, and 200 attempts
//     (the seed does not give the old attempt limit; the incident shows it
//     outlasted the two-hour outage);
//   - fixed, the seed's policy: 5s doubling with full jitter under a one-hour
//     cap, uniform(0, min(1h, 5s·2^a)), and 13 attempts (the seed's decide
//     stops at attempt >= 12, counting from 0: 12 retries).
//
// The old policy puts all 11,000 recoveries in the first minute, 18 times
// what the endpoint absorbs: the incident. The fixed policy spreads them
// over an hour, but its first minute still receives about 700 (the seed
// says "a few hundred" and asserts fewer than 600; in its own model the
// first minute gets about 90 requests from each of the eight retry levels
// longer than a minute, plus about 60 from the shorter ones), and its 12
// retries give up on 18% of the jobs before the endpoint comes back. So
// both fail the verdict, the fixed one narrowly.
//
// The flags change the scenario and the fixed policy; the old policy stays
// the incident's. Growing the ceiling threefold under a two-hour cap passes
// (peak 468, no job given up); -together makes every job fail at once;
// -overload makes the endpoint fail every request of a minute over its
// capacity, as a server falls over under a storm:
//
//	go run ./examples/fleetsim -factor 3 -cap 2h
//	go run ./examples/fleetsim -together -overload -svg load.svg
//
// Run it with -h for the list. Both policies are
// [github.com/retrykit/retrykit/retrytest.Policy] values, the old one with
// CapAfterJitter, and the simulation is
// [github.com/retrykit/retrykit/retrytest/policysim.Fleet] deciding with
// their Decide methods; a test asserts the same thing with
// policysim.AssertPeakAtMost or matchers.HavePeakAtMost.
//
// Exit status: 0 after printing (whatever the verdict), 1 if the
// simulation or the SVG fails, 2 for bad flags.
package main
