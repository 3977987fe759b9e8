// Package conformance checks a team's own retry code against the whole
// contract of a retry in one call, as testing/fstest.TestFS checks a file
// system: declare the policy the code claims to follow in a [Spec], adapt
// the code to the suite's seams in a few lines, and every property runs as
// a named subtest, each failure printed with the attempts' schedule.
//
//	func TestRetrier(t *testing.T) {
//		spec := conformance.Spec{
//			Policy:       retrytest.Policy{First: 100 * time.Millisecond, Cap: 10 * time.Second, Jitter: retrytest.FullJitter, Attempts: 6},
//			PermanentErr: myretry.Permanent(errors.New("bad request")),
//		}
//		conformance.TestLoop(t, spec, func(s conformance.Seams) conformance.Loop {
//			return myretry.New(myretry.WithClock(s.Clock), myretry.WithRand(s.Rand)).Do
//		})
//	}
//
// # Three shapes of retry code
//
// [TestPolicy] takes a pure decision (the failed attempt, its [retrytest.Outcome]
// and a random source in; a [retrytest.Decision] out). [TestLoop] takes a
// loop around an operation, built over [Seams]: a fake clock, a sleep
// function and a random source. [TestClient] takes an HTTP client built
// over the suite's scripted transport. Code that calls package time
// itself runs in a testing/synctest bubble with [RunInBubble]. Each has a
// Check twin ([CheckPolicy], [CheckLoop], [CheckClient]) that returns a
// [Report] instead of failing a t, for an Example.
//
// # The properties
//
// Each is a subtest named as below, so -run selects them:
//
//	FirstAttemptImmediate   no wait before the first attempt
//	WaitsInWindows          every wait inside Policy.Window, at the Min, middle and Max sources
//	JitterFromSource        the waits reach both edges of their windows: the jitter comes from the seam
//	CapReached              at the Max source the waits reach the cap and stay on it
//	NoSpikeAtCap            100 seeded waits at the cap spread over its window (jitter after the cap)
//	AttemptCount            exactly Policy.Attempts attempts, the first included
//	NoWaitAfterLastAttempt  the call returns when its last attempt fails
//	PermanentNotRetried     Spec.PermanentErr, or a Permanent status, ends the call at once
//	RetryableStatuses       429, 500, 502, 503, 504 retried after the backoff, never at once
//	ConnectionErrors        a connection reset and an I/O timeout retried
//	RetryAfterSeconds       a Retry-After in seconds replaces the backoff
//	RetryAfterHTTPDate      so does one in each of the three HTTP-date forms
//	RetryAfterClamped       a hint above Hints.Max is cut to it (or, with GiveUp, ends the call)
//	RetryAfterFloored       a hint of 0 is raised to Hints.Min
//	RetryAfterMalformed     "soon" and "" fall back to the backoff, never to zero
//	RetryAfterAbsurd        9223372037 is clamped, -5 and NaN fall back: nothing wraps
//	IdempotencyKey          one key on every attempt of a call, a new one per call
//	CancelDuringWait        canceled mid-wait, the call returns at once with context.Canceled
//	DeadlineCutsWait        a context deadline cuts a wait short
//	BudgetHonoured          the code's own Spec.Budget ends the call
//	FreshEachCall           a second call of the same retrier starts afresh
//	ConcurrentCalls         4 calls at once each behave as a call made alone (run with -race)
//	NoLeaks                 no timer or goroutine left, given up or canceled
//
// A property the shape or the Spec cannot express is skipped with the
// reason, never passed in silence. [Waive] accepts a known gap with the
// team's reason: the property still runs, and the suite fails once it
// holds, so the waiver goes when the gap closes. A property that needs another to hold first (CapReached needs
// the jitter to follow the source) skips and names it, so that one bug
// fails one line of the report wherever the suite can keep them apart.
//
// # How the suite drives the code
//
// Every call runs on a fresh fake clock (or in a bubble) and is driven
// from wait to wait until it returns, within a horizon of every wait the
// Spec allows plus an hour. The operation of a loop fails with a transient
// error, or with Spec.PermanentErr; a client's requests are answered by a
// [httpscript.Transport] with statuses, Retry-After values, resets and
// timeouts; each request carries the call's number in its header and its
// context, so a client that builds requests of its own keeps it by passing
// the context on. Waits are read from when each attempt began,
// so they include whatever the code spends between attempts.
//
// Properties other than the schedule's compare the code with itself: a
// Retry-After that cannot be read must give the wait the same code gives
// without one, so a backoff bug fails WaitsInWindows and not every
// property that waits.
package conformance
