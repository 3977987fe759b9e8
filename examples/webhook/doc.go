// Package webhook is seed 000 of retrykit, end to end: a webhook delivery
// worker whose retry policy is a pure function, tested exhaustively with
// seeded and endpoint random sources, a fake clock and a fleet simulation —
// and the three bugs that took a customer's endpoint down, each caught.
//
// # The incident
//
// A customer's endpoint was down for two hours; when it recovered it
// received a burst of retries and went down again. The retry code had three
// bugs, none tested because testing backoff "requires waiting": the jitter
// was added after capping, so every job at the cap retried at the same
// instant; the cap was 60 seconds instead of 60 minutes; and a 429 without
// Retry-After was retried at once.
//
// # Policy and mechanism
//
// [Decide] is the whole policy in one pure function: attempt number, error
// and random source in, [Decision] out (base 5s, cap 1h, 12 retries, full
// jitter under the cap, 4xx permanent except 408 and 429, Retry-After
// honoured, TLS certificate errors permanent). [Worker] is the thin adapter
// that turns a Decision into a timer on a [github.com/jonboulle/clockwork.Clock]
// or into giving up; its HTTP client, clock and random source are fields
// with real defaults.
//
// # What the tests show
//
// The tests call Decide directly, the way
// [github.com/retrykit/retrykit/retrytest/policysim.Run] runs any pure policy:
//
//   - the whole schedule for 50 seeds, each delay within its window
//     (the windows of a [github.com/retrykit/retrykit/retrytest.Policy] with
//     full jitter);
//   - the ceiling reaches the one-hour cap, pinned with the top endpoint
//     source ([github.com/retrykit/retrykit/seqrand.Max]);
//   - the delivery stops after MaxRetries retries;
//   - 2,000 delays at the cap are spread over the hour, no spike
//     ([github.com/retrykit/retrykit/retrytest.CheckSpread]);
//   - the classification table
//     ([github.com/retrykit/retrykit/retrytest.CheckClassifier]), and both
//     sides of each of its edges;
//   - a Retry-After is waited at least 5s and at most an hour;
//   - the Worker, on a [github.com/retrykit/retrykit/fakeclock.Clock] with a
//     scripted transport, schedules the retry after the 4th delivery at
//     0.5 × min(1h, 5s·2³) = 20s, sends the event's ID as the
//     Idempotency-Key of every delivery, reads a Retry-After date on its
//     clock, and gives an event up, through Done, after 13 deliveries, on a
//     permanent failure, or once its context is done;
//   - 11,000 deliveries whose first failures are spread over a two-hour
//     outage, the seed's model
//     ([github.com/retrykit/retrykit/retrytest/policysim.Fleet]):
//     they are all back within the hour after recovery and at most a fifth
//     are given up before it (the seed's peak of 600 a minute does not hold
//     in its own model: the fleet test says why); 11,000 that fail together
//     as the endpoint goes down: the recovering endpoint receives at most
//     600 a minute, where the jitter-after-cap policy sends it all 11,000
//     in one.
//
// The old implementations are kept in buggy.go ([DecideJitterAfterCap],
// [DecideMinuteCap], [DecideNoDelayOn429]); a test runs the same checks
// against them and requires each to fail, and the package Examples pin the
// failure messages.
package webhook
