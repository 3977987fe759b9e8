// Package retrytest provides checks for retry schedules: whether the code
// under test waited the right delays, made the right number of attempts,
// obeyed its cap and spread its jitter. It is to retry code what
// [net/http/httptest] is to HTTP code.
//
// # Three forms of every check
//
// Each property comes in three forms with the same suffix:
//
//	err := retrytest.CheckDelaysWithin(got, windows...)  // returns nil or an error
//	ok := retrytest.AssertDelaysWithin(t, got, windows...) // t.Errorf, keeps going
//	retrytest.RequireDelaysWithin(t, got, windows...)      // t.Errorf, then t.FailNow
//
// The Assert and Require forms wrap the Check form, and the Gomega
// matchers in package [github.com/retrykit/retrykit/matchers] print the same
// report, so a failure reads the same everywhere. Require must be called
// from the goroutine running the test, like [testing.T.FailNow].
//
// The checks: [CheckDelays] (exact waits), [CheckDelaysWithin] (each wait in
// its [Window]), [CheckAttempts] (how many attempts), [CheckAttemptsAt]
// (when each attempt happened), [CheckTotalDelay], [CheckCappedAt] (no wait
// over the cap, and the cap reached) and [CheckSpread] (a sample of waits
// spread over a range, with no spike).
//
// The t of Assert and Require is a [TestingT], which *testing.T,
// ginkgo.GinkgoT(), *rapid.T and testify's *assert.CollectT all satisfy.
// A testable Example has no *testing.T: give the checks and the fixtures
// an [ExampleT], which prints what they report, so that the Output comment
// pins a failure, and runs their cleanups.
//
// # What a check reads
//
// got is any of:
//
//   - a []time.Duration of the waits between attempts: n waits are n+1
//     attempts, wait k before attempt k+2, and attempt 1 is immediate;
//   - a []Attempt (see [Attempt]), numbered by position from 1;
//   - an [AttemptsProvider], such as the sleep recorder, the scripted
//     transport, a [Stopwatch] or a [PolicyRun]: its attempts are the
//     schedule, and none is no attempt;
//   - a [DelaysProvider], such as the fake clock: it records waits, not
//     attempts, so n waits read as n+1 attempts, the first immediate, and no
//     wait reads as one attempt.
//
// A value with both methods (the sleep recorder) is read through Attempts,
// and a positive wait its Delays recorded after the last attempt is part of
// the schedule: the bug of sleeping after the final attempt, or after an
// error that was not retried. (The wait is the sum of Delays beyond the
// attempts' delays, so a zero-length sleep there is not seen.) The delay
// and attempt checks report it as a violation, on a row of its own:
//
//	retrytest: waited 4s after the last attempt (3 of 3), want no wait after it
//	retry schedule (3 attempts, then a 4s wait):
//	    attempt  delay  at  want  result
//	    1        0s     0s  0s    503 Service Unavailable
//	    2        1s     1s  1s    503 Service Unavailable
//	    3        2s     3s  2s    503 Service Unavailable
//	  > -        4s     7s  -     (wait after the last attempt)  <-- a wait no attempt follows
//
// CheckTotalDelay counts it and CheckCappedAt holds it to the cap. A value
// with both methods that marked no attempt but recorded waits (a recorder
// used without Attempt) is read through Delays.
//
// A nil got, a nil provider, a type not in this list and an impossible
// expectation (a [Window] whose Min is after its Max, a negative count) are
// reported as errors naming the function, never as panics.
//
// # Windows and ladders
//
// Windows line up with delays: want[0] is the window of the first wait, the
// one before attempt 2, and want[i] the window of the wait before attempt
// i+2; attempt 1 must be immediate. Messages count from 1, so "window 1 of
// 4" is want[0], and the table shows each window on the row of the attempt
// it precedes. [Exponential] builds the windows of the usual policies:
// exponential with a cap, no jitter, full jitter ([WithFullJitter]), equal
// jitter ([WithEqualJitter]), ± a randomization factor
// ([WithRandomizationFactor]), up to a fixed amount added
// ([WithAdditiveJitter]) or ± a fixed amount ([WithAbsoluteJitter]); the
// cap before jitter or after it ([WithCapAfterJitter]); the first exponent
// 0 or 1 ([WithFirstExponent]); and a nanosecond of slack for libraries
// that draw from [a, b+1ns) ([WithTolerance]).
//
// # Failure messages
//
// A failed check returns a [*ScheduleError]. Its first line is a summary a
// CI annotation can show alone; with several violations, each gets its own
// line. Then comes the whole schedule as a table with the first offending
// attempt marked:
//
//	retrytest: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
//	retry schedule (3 attempts):
//	    attempt  delay  at     want            result
//	    1        0s     0s     0s              503 Service Unavailable
//	    2        100ms  100ms  [50ms, 150ms]   503 Service Unavailable
//	  > 3        450ms  550ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
//
// The columns: attempt (1-based; attempt 1 is the first call, so retries =
// attempts - 1), delay (the wait before the attempt, 0s for attempt 1), at
// (the offset from the start of the schedule), want (what the check
// expected of that attempt) and result (as recorded, when known). An
// attempt that was expected but not made is a row with delay "-" and result
// "(missing)"; one that was made but not expected has want "-". Durations
// print as "1.5s" and "1h", never in nanoseconds; the text has no trailing
// spaces and does not vary between runs, so Examples can pin it.
//
// # Fleet simulation
//
// Per-job correctness does not guarantee fleet behaviour. [Fleet]
// simulates many jobs retrying through the same outage with a team's real
// [Policy] (its pure decide function, or a ladder of windows through
// [LadderPolicy]), and [Fleet.Simulate] returns the [FleetLoad] the
// recovering endpoint receives: requests per bucket after recovery, the
// peak, the time until the backlog drains and the jobs that gave up. With
// Overload, the endpoint also fails in every bucket over its Capacity, as
// a server falls over under a storm. The simulation is deterministic for a
// seed and, without Overload, streams: a million jobs of a dozen attempts
// take well under a second, in memory that does not grow with the jobs.
//
// [CheckPeakAtMost] (with AssertPeakAtMost, RequirePeakAtMost and the
// matcher matchers.HavePeakAtMost) checks the peak against what the
// endpoint absorbs. Its failure is the load as a text chart, with the
// capacity line that the offending bars cross and the peak marked:
//
//	load, err := retrytest.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Policy: policy, Seed: 7}.Simulate()
//	if err != nil {
//		t.Fatal(err)
//	}
//	retrytest.AssertPeakAtMost(t, load, 600)
//
// [FleetLoad.Chart] draws the chart on its own, and [WriteFleetSVG] draws
// several loads side by side as an SVG for a design review. Seed 000's
// scenario, old policy against fixed, is "go run ./examples/fleetsim".
//
// # Testing an HTTP client: the scripted transport
//
// [Transport] is a [net/http.RoundTripper] that answers from a script
// instead of a server — "429 with Retry-After: 7 once, then 200" is
//
//	tr := retrytest.NewTransport(t,
//		retrytest.Respond(429).RetryAfter(7*time.Second),
//		retrytest.Respond(200),
//	)
//
// Replies ([Respond], [Fail], [ConnReset], [IOTimeout]) carry headers,
// bodies, Retry-After in seconds or as an HTTP-date in any form
// ([Reply.RetryAfter], [Reply.RetryAfterDate]) and a latency, and are
// served once, [Reply.Times] or [Reply.Always]. [Transport.Route] gives
// each method and path its own script, with [net/http.ServeMux] patterns.
// The transport records every request — time, method, URL, header, body —
// and is itself the provider the checks read, so
// retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second) checks the wait and
// retrytest.AssertAttempts(t, tr, 9) catches nested retries. The row of a
// reply that carried a wait hint says what the server asked for ("429 Too
// Many Requests, Retry-After: 7 (asks to wait 7s)"), so a client that
// ignored it shows at a glance. A request the
// script has no reply for fails the test with the request and the script,
// and the client gets an error at once: nothing hangs. [CheckScriptDone]
// checks the other way round, that every reply was used. No socket is ever
// opened, so it works inside a testing/synctest bubble (where a keep-alive
// connection hangs the bubble, golang/go#78492) and on a fake clock
// ([Transport.WithClock]). Used outside a bubble without a clock, it could
// only time requests on the real clock, so it keeps their order but not
// their times: its failure texts show the attempts in order without
// offsets, the same on every run, and the checks of times fail asking for
// a clock, while counting attempts works as usual.
//
// # Side effects exactly once
//
// A [Ledger] stands for the server side of a side effect and applies it
// once per idempotency key ([NewLedger] reads the Idempotency-Key header;
// [NewLedgerFunc] takes your own key). Attached to the transport with
// [Transport.WithLedger], it sees every request with an unsafe method;
// [CheckExactlyOnce] (and AssertExactlyOnce, RequireExactlyOnce) fails
// with the keys and their request counts when a retried POST charged the
// card twice — no key, or a new key per attempt.
//
// # Pure policies and classification
//
// [RunPolicy] runs a pure [Policy] over every attempt with a seeded source
// (PCG, the stream of seqrand.Seeded) and [RunPolicyRand] with a source of
// your own, such as an endpoint source; the [PolicyRun] they return is a
// provider for the checks, with the decisions and their reasons, and
// [PolicyRun.Stop] says after which attempt the policy gave up, and why. A
// policy that never gives up is cut at [DefaultAttemptLimit] attempts with
// an error wrapping [ErrRunaway]. [CheckClassifier] runs a classifier — in
// any of the usual shapes, go-retryablehttp's CheckRetry included — over a
// table of [ClassifyCase] rows and prints the whole table with the wrong
// rows marked.
//
// # Your own Retry-After parser
//
// [CheckRetryAfterParser] (and AssertRetryAfterParser) runs a parser of
// the usual shape, func(value string, now time.Time) (time.Duration,
// error), over every Retry-After case of the corpus in package
// [github.com/retrykit/retrykit/retryafter] — huge values that wrap, signs,
// NaN, every date form, zones other than GMT — and lists the cases it gets
// wrong, judged as a retry loop would use the answer.
//
// # Inside a synctest bubble
//
// Most retry libraries call [time.NewTimer] themselves; inside a
// testing/synctest bubble their waits take no real time. [Advance] moves
// the bubble's clock and waits for every goroutine to settle (time.Sleep
// then synctest.Wait), so a check at 6.999s and another at 7s are both
// exact. A [Stopwatch] times attempts with time.Now for code that has no
// HTTP seam. [CheckBubbleTime] catches the classic pitfall of a policy or
// deadline built outside the bubble, which captured real time. [InBubble]
// tells where the caller runs.
//
// # Overall deadlines
//
// [CheckAbortedAtDeadline] proves that a total budget aborts the loop
// mid-wait: given the attempts and a [DeadlineRun] (measured by
// [RunWithDeadline] in a bubble, or by a [DeadlineCall] that
// [StartWithDeadline] or [StartWithBudget] started on a fake clock), the
// loop must return exactly at the deadline, with [context.DeadlineExceeded],
// and start no attempt at or after it. The failure says which wait was not
// cut short. A loop that gives up early, because its next wait would end
// past the deadline, passes with [AllowGiveUpEarly].
//
// # Leaks
//
// [VerifyNoLeaks] (first in a test) and [VerifyTestMain] wrap
// go.uber.org/goleak and add hints for the leaks retry tests have: an
// unclosed response body, a keep-alive connection, a loop still sleeping,
// and the commonest of all: a goroutine that ran the call of an attempt
// that timed out, blocked forever sending a result nobody receives.
// retrykit's own fakes need no goleak ignores; a test keeps it so.
package retrytest
