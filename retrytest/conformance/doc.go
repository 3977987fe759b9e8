// Package conformance checks a team's own retry code against the whole
// contract of a retry in one call, as testing/fstest.TestFS checks a file
// system: declare the policy the code claims in a [Spec], adapt the code to
// the suite's [Seams] in a few lines, and every property runs as a named
// subtest, its cases as subtests of that one, each failure printed with
// the attempts' schedule and pointing at the line that called the suite.
//
//	func TestRetrier(t *testing.T) {
//		spec := conformance.Spec{
//			Policy:       retrytest.Policy{First: 100 * time.Millisecond, Cap: 10 * time.Second, Jitter: retrytest.FullJitter, Attempts: 6},
//			PermanentErr: myretry.Permanent(errors.New("bad request")),
//		}
//		conformance.TestLoop(t, spec, func(s conformance.Seams) conformance.Loop {
//			return myretry.New(myretry.WithClock(s.Clock), myretry.WithRand(rand.New(s.Rand))).Do
//		})
//	}
//
// [TestPolicy] takes a pure decision (a retrytest.DecideFunc), [TestLoop] a
// loop around an operation, [TestClient] an HTTP client over the suite's
// scripted transport; code that calls package time runs in a
// testing/synctest bubble with [RunInBubble]. Each returns the [Report];
// [CheckPolicy], [CheckLoop] and [CheckClient] return it without a t.
//
// # Pass, skip, waived
//
// A property passes only when it saw what it needs to judge and the code
// met it; without that it is skipped, saying what was missing and which
// property reports the cause — in a bubble too, where a plain t.Skip would
// read as a pass. So a pass means: the suite watched the code do that, and
// it was right. [Waive] accepts a known failure of a property or of one case
// ("RetryAfterHTTPDate/rfc850"); a waiver whose property or case holds is
// stale and fails the suite. The Test forms log one line of every skip and
// waiver after the run (go test -v shows it).
//
// # The properties, what each needs to see, and its cases
//
//	WaitsOnTheClock          a wait on the suite's fake clock (not time.After); runs first
//	FirstAttemptImmediate    an attempt, at 0s
//	WaitsInWindows           min middle max: a retry at that source, its wait in Policy.Window
//	JitterFromSource         min max: a wait below the cap there, on its window's edge
//	CapReached               two calls alike at Max, reaching the cap's retry: on the cap
//	NoSpikeAtCap             100 seeded waits at the cap, spread over its window
//	AttemptCount             the call giving up: exactly Policy.Attempts attempts
//	NoWaitAfterLastAttempt   the last declared attempt reached: the call returns with it
//	PermanentNotRetried      one permanent failure (a case per Permanent status): no retry
//	RetryableStatuses        a case per Retryable status: retried after the backoff
//	ConnectionErrors         reset timeout: retried after the backoff
//	RetryAfterSeconds        a case per status in Hints.Statuses: waits the hint
//	RetryAfterHTTPDate       imf-fixdate rfc850 asctime: waits until the date
//	RetryAfterClamped        a hint above Hints.Max: cut to it (GiveUp: the call ends)
//	RetryAfterFloored        a hint of 0: raised to Hints.Min
//	RetryAfterMalformed      malformed empty: the backoff's wait, never zero
//	RetryAfterAbsurd         huge negative nan: clamped, or the backoff; nothing wraps
//	IdempotencyKey           a call that retries: one key per call, on every attempt
//	CancelDuringWait         a first wait: canceled mid-wait, the call ends at once
//	DeadlineCutsWait         a wait: a deadline in it ends the call then
//	BudgetHonoured           a Budget the attempts reach: the call ends at it
//	FreshEachCall            a first call that retried: the second waits alike
//	ConcurrentCalls          4 calls that retry: each waits as a call made alone
//	NoLeaks                  given-up canceled: no timer or goroutine left
//
// A case's name is part of the API: renaming one is a breaking change.
//
// # How the suite drives the code
//
// Every call runs on a fresh fake clock (or in a bubble) and is driven
// from wait to wait until it returns, within a horizon of every wait the
// Spec allows plus an hour; every duration the suite derives saturates.
// The operation of a loop fails with a transient error or Spec.PermanentErr;
// a client's requests are answered by an httpscript.Transport (statuses,
// Retry-After, resets, timeouts), each carrying the call's number in its
// header and its context. Waits are read from when each attempt began. A
// property other than the schedule's compares the code with itself: a
// Retry-After that cannot be read must give the wait the same code gives
// without one, so a backoff bug fails WaitsInWindows alone.
package conformance
