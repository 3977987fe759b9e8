// Package matchers provides Gomega matchers for retry schedules: the
// checks of package [github.com/retrykit/retrykit/retrytest] in Gomega's
// shape, for Ginkgo suites and for plain tests that use gomega.NewWithT.
//
//	g := gomega.NewWithT(t)
//	g.Expect(rec).To(matchers.HaveDelaysWithin(
//		retrytest.Policy{First: time.Second, Growth: 2, Cap: 30*time.Second, Jitter: retrytest.FullJitter, Attempts: 5}.Windows()...))
//	g.Expect(rec).To(matchers.HaveAttempts(5))
//	g.Expect(clock).To(matchers.HaveNoPendingTimers())
//
// # Matchers
//
//   - [HaveDelays]: the waits between attempts, exactly.
//   - [HaveDelaysWithin]: each wait within its window.
//   - [HaveAttempts]: the number of attempts (not retries).
//   - [HaveAttemptsAt]: when each attempt happened.
//   - [HaveTotalDelay]: the sum of the waits.
//   - [HaveNoAttemptsBetween]: no attempt in a span, as an open circuit
//     breaker sends nothing.
//   - [BeCappedAt]: no wait over the cap, and the cap reached.
//   - [BeSpread]: a sample of waits spread over a range, with no spike.
//   - [HavePeakAtMost]: a fleet's recovery load, from
//     [policysim.Fleet.Simulate], never over what the endpoint absorbs.
//   - [HaveNoPendingTimers]: nothing left waiting on a fake clock.
//
// # Actual values
//
// The schedule matchers read a [retrytest.Schedule] — the sleep recorder,
// the scripted transport, a stopwatch, a fake clock, a policysim.Job — or a
// plain []time.Duration of waits between attempts (n waits are n+1
// attempts, the first immediate). A source that sees waits only (the fake
// clock: its sleeps, and timers that ran their course or are pending) reads
// the same way; one that recorded nothing made no attempt. A wait recorded
// after the last attempt, a Sleep(0) included, is a violation on a row of
// its own. Any other actual, an int or a []recorder.Attempt among them, is
// an error. [HavePeakAtMost] reads a *policysim.Load, and
// [HaveNoPendingTimers] a fake clock.
//
// # Messages
//
// A failure prints the whole schedule as a table, marks the first
// offending attempt, and ends with the violations, in the wording the
// retrytest Check functions use (durations as "1.5s", never nanoseconds):
//
//	Expected
//	    retry schedule (3 attempts)
//	      attempt  delay  at     want
//	      1        0s     0s     0s
//	      2        100ms  100ms  [50ms, 150ms]
//	    > 3        450ms  550ms  [200ms, 400ms]  <-- delay 450ms outside [200ms, 400ms]
//	to have delays within the given windows: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
//
// A negated failure prints the same table unmarked and says "not to". An
// actual of the wrong type, a nil Schedule or an impossible expectation (a
// window whose Min is after its Max, a negative count) makes Match return an
// error, so the assertion fails whether negated or not; no matcher panics.
//
// # Eventually
//
// Each matcher resets its state at the start of Match, so one matcher value
// can be polled. The schedule matchers implement MatchMayChangeInTheFuture:
// polling a bare Schedule, as in Eventually(rec).Should(...), stops as soon
// as the answer is final (a recorded delay outside its window, more
// attempts than wanted). Gomega consults it only for bare values, not for
// Eventually(rec.Attempts).
package matchers
