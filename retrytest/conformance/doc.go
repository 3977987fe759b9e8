// Package conformance checks a team's own retry code against the whole
// contract of a retry in one call, as testing/fstest.TestFS checks a file
// system: declare what the code claims in a [Spec], adapt the code to the
// suite's [Seams] in a few lines, and every property runs as a subtest,
// its cases as subtests of that one, each failure printed with the
// attempts' schedule and pointing at the line that called the suite.
//
//	func TestRetrier(t *testing.T) {
//		spec := conformance.Spec{Policy: retrytest.Policy{First: 100 * time.Millisecond, Cap: 10 * time.Second, Jitter: retrytest.FullJitter, Attempts: 6}}
//		conformance.TestLoop(t, spec, func(s conformance.Seams) conformance.Loop {
//			return myretry.New(myretry.WithClock(s.Clock), myretry.WithRand(rand.New(s.Rand))).Do
//		})
//	}
//
// [TestPolicy] takes a pure decision (a retrytest.DecideFunc), [TestLoop] a
// loop, [TestClient] an HTTP client over a scripted transport, [TestParser]
// a bare Retry-After parser (against retryafter's corpus), [TestBreaker] a
// circuit breaker (a [BreakerSpec]; an open one sends nothing). Code that
// calls package time runs in a testing/synctest bubble with [RunInBubble],
// an option because a bubble sees less (docs/design.md has the figures).
// Each returns the [Report]; the Check forms return it without a t.
//
// # Pass, skip, waived
//
// A property passes only when it saw what it needs to judge and the code
// met it; without that it is skipped, saying what was missing and which
// property reports the cause, in a bubble too. So a pass means: the suite
// watched the code do that, and it was right. [Waive] accepts a known
// failure of a property or of one case ("RetryAfterHTTPDate/rfc850"); a
// waiver whose gap has closed is stale and fails the suite. The Test forms
// log one line of every skip and waiver after the run.
//
// # What the Spec states
//
// The Policy's ladder and Attempts or a Budget; Retryable and Permanent
// statuses (by class: Statuses); Bodies and Signals; an AttemptTimeout,
// cut through the attempt's context or abandoned; Hints (Fields,
// Statuses, Min, Max, GiveUp); OwnRandom, for jitter the seam cannot reach
// (then a sample of waits); SharedState across calls. A [Rule] states the
// wait after any cause in a few lines where the fields cannot (two ladders,
// jitter on a hint, a fallback per status); the fields make the default.
//
// # The properties, what each needs to see, and its cases
//
//	WaitsOnTheClock          a wait on the suite's fake clock (not time.After); runs first
//	FirstAttemptImmediate    an attempt, at 0s
//	WaitsInWindows           min middle max (or sample): a retry, its wait in Policy.Window
//	JitterFromSource         min max: a wait below the cap there, on its window's edge
//	CapReached               two calls alike, reaching the cap's retry: on the cap
//	NoSpikeAtCap             100 seeded waits at the cap, spread over its window
//	AttemptCount             the call giving up: exactly Policy.Attempts attempts
//	NoWaitAfterLastAttempt   the last declared attempt reached: the call returns with it
//	PermanentNotRetried      a case per Permanent status: no retry
//	RetryableStatuses        a case per Retryable status: retried after the backoff
//	ConnectionErrors         reset timeout: retried after the backoff
//	RetrySignals             a case per Signal: retried, or final, as its body says
//	RetryAfterSeconds        a case per Hints status, whitespace: waits the hint
//	RetryAfterHTTPDate       imf-fixdate rfc850 asctime zone: waits until the date
//	RetryAfterClamped        a hint above Hints.Max: cut to it (GiveUp: the call ends)
//	RetryAfterFloored        zero past-date: raised to Hints.Min (or the backoff)
//	RetryAfterMalformed      malformed empty: the backoff's wait, never zero
//	RetryAfterAbsurd         huge negative nan: clamped, or the backoff; nothing wraps
//	HintFields               a case per Hints field, precedence: the first field wins
//	IdempotencyKey           a call that retries: one key per call, on every attempt
//	CancelDuringWait         a first wait: canceled mid-wait, the call ends at once
//	DeadlineCutsWait         a wait: a deadline in it ends the call then
//	BudgetHonoured           a Budget the attempts reach: the call ends at it
//	AttemptTimeout           a hung attempt: cut at the timeout, retried, nothing left
//	FreshEachCall            a first call that retried: the second waits alike
//	ConcurrentCalls          4 calls that retry: each waits as a call made alone
//	NoLeaks                  succeeded given-up canceled: no timer or goroutine left
//
// A case's name is part of the API: renaming one is a breaking change.
//
// Every call runs on a fresh fake clock (or in a bubble), driven from
// wait to wait within a horizon of every wait the Spec allows plus an
// hour; every duration the suite derives saturates. Other properties
// compare the code with itself (an unreadable hint: the wait without one),
// so a backoff bug fails WaitsInWindows alone.
package conformance
