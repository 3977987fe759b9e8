// Fleetsim shows what a retry policy does to a server recovering from an
// outage: seed 000, step 6, as a command. Per-job correctness does not
// guarantee fleet behaviour.
//
// With no flags it runs the seed's scenario: 11,000 webhook jobs fail
// during a two-hour outage, their first failures spread over it, and every
// retry after recovery succeeds. It prints the schedules of three policies
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
//     stops at attempt >= 12, counting from 0: 12 retries);
//   - advised, the nearest policy to fixed that passes with 10% to spare,
//     found by [github.com/retrykit/retrykit/retrytest/policysim.Advise].
//
// A policy passes when no minute receives more than the endpoint absorbs
// and at most 1% of the jobs give up (110 of 11,000; -max-gave-up sets
// another limit): one that keeps the peak low by abandoning the work has
// not passed. The old policy puts all 11,000 recoveries in the first
// minute, 18 times what the endpoint absorbs: the incident. The fixed
// policy spreads them over an hour, but its first minute still receives
// 710 (the seed says "a few hundred" and asserts fewer than 600; in its
// own model the first minute gets some of the jobs from each of the eleven
// rungs of its ladder, from 5s to the cap), and its 12 retries give up on
// 18% of the jobs before the endpoint comes back: it fails on both counts.
// The advisor searches around it (First, growth, cap, jitter, attempts)
// for the policies that keep every minute at or under 540 while giving up
// on at most 1% of the jobs, and ranks them by how little they change:
// fewest dimensions changed, then shortest drain. The best, a 15s first
// delay growing fourfold (five rungs), peaks at 525 and gives up on one
// job. The output ends with it as a retrytest.Policy literal to paste.
// (Growing the ceiling threefold under a two-hour cap passes too, with a
// peak of 468 and no job given up, but changes as much and drains an hour
// later.) With -together the fixed policy keeps the peak at 145 but gives
// up on 7,854 jobs (71%), its 13 attempts ending before the outage does;
// the advice is equal jitter, which gives up on 40.
//
// The flags change the scenario and the fixed policy; the old policy stays
// the incident's. -keep leaves some dimensions of the fixed policy out of
// the search and -max-gave-up sets how many jobs a policy may give up and
// pass, the verdict's limit and the advisor's (a number, or a share such
// as 5%; 1% by default). The advice comes as flags that set it on the
// fixed policy, to run again with other seeds. -together makes every job
// fail at once; -overload makes the endpoint fail every request of a
// minute over its capacity, as a server falls over under a storm:
//
//	go run ./examples/fleetsim -base 15s -factor 4 -seed 3
//	go run ./examples/fleetsim -keep cap,attempts -max-gave-up 0
//	go run ./examples/fleetsim -together -overload -svg load.svg
//
// -preset river and -preset asynq put a job framework's default policy in
// the place of fixed, as package
// [github.com/retrykit/retrykit/examples/fleetsim/presets] models it:
// River's n⁴ seconds ±10% for 25 attempts peaks at 493 and loses no job;
// asynq's n⁴ + 15 + U{0…29}·(n+1) seconds for 26 peaks at 639, over the
// capacity. Their ladders span three weeks; the output says the horizon
// and the bucket the simulation counts in. The advisor searches the
// geometric policies nearest each preset's retrytest.Policy and prints the
// best as the framework's hook to paste (package
// [github.com/retrykit/retrykit/examples/fleetsim/paste]): none needed for
// River's; for asynq's, 15s x3 with its step jitter, a RetryDelayFunc.
//
// -breakers 100 splits the jobs over 100 clients, each with a circuit
// breaker (sony/gobreaker's defaults): during the seed's outage the
// requests reaching the endpoint drop from 696423 to 12015 (old) and from
// 119652 to 11072 (fixed), a trickle of probes.
//
// Run it with -h for the list. The simulation is policysim.Fleet; a test
// asserts the same with policysim.AssertPeakAtMost.
//
// Exit status: 0 after printing (whatever the verdict), 1 if the
// simulation or the SVG fails, 2 for bad flags.
package main
