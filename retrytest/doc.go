// Package retrytest checks retry schedules: whether the code under test
// waited the right delays, made the right number of attempts, obeyed its cap,
// spread its jitter and stopped when it should. It is to retry code what
// [net/http/httptest] is to HTTP code.
//
//	func TestBackoff(t *testing.T) {
//		rec := recorder.New()             // the code under test sleeps with rec.Sleep
//		client.Run(ctx, rec.Sleep, rec.Attempt)
//		policy := retrytest.Policy{First: time.Second, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, Attempts: 5}
//		retrytest.AssertDelaysWithin(t, rec, policy.Windows()...)
//	}
//
// # What a check reads
//
// Every check reads a [Schedule]: a recorder.Recorder or
// recorder.Stopwatch, a fakeclock.Clock, an httpscript.Transport, a
// policysim.Job, or [Waits] for a plain list of delays. A source that sees waits only (a clock, a list) reads n waits as
// n+1 attempts, the first immediate; a wait after the last attempt is a
// violation of its own. Wrong input does not compile.
//
// # Two forms
//
// Each check has two forms, as goleak and quartz do: CheckX returns nil or an
// error, for Gomega matchers, Examples and tables of buggy implementations;
// AssertX reports through t.Errorf and returns whether it passed. There is no
// third form: to stop the test, write if !AssertX(...) { t.FailNow() }. The t
// is a [TestingT], which *testing.T, ginkgo.GinkgoT(), *rapid.T and
// testify's *assert.CollectT satisfy; an Example uses an [ExampleT].
//
// The checks: [CheckDelays] (exact waits), [CheckDelaysWithin] (each wait in
// its [Window]), [CheckAttempts], [CheckAttemptsAt] (when each attempt
// happened), [CheckTotalDelay], [CheckCappedAt], [CheckSpread] (no spike in
// a sample of waits), [CheckStopped] (a deadline, a budget or a cancel
// stopped the loop mid-wait, on a recorder.Call), [CheckNoAttemptsBetween]
// (an open circuit breaker sends nothing) and [CheckClassifier] (which
// errors retry). The fixtures that check themselves have the same
// two forms as methods (httpscript's Transport.CheckDone and
// Ledger.CheckExactlyOnce), and so has package bubble's CheckTime.
//
// # The one policy type
//
// [Policy] declares a backoff — first delay, growth, cap, jitter, cap
// before or after the jitter, first exponent, open top, attempts — and
// builds its windows ([Policy.Windows]), draws its delays ([Policy.Decide],
// for package policysim's fleet simulation) and checks itself
// ([Policy.Validate]). [Breaker] declares a circuit breaker the same way.
//
// # Failure messages
//
// A failed check returns a [*ScheduleError]: one summary line per violation,
// then the whole schedule as a table, the first offending row marked, and,
// when the source's clock can tell, the goroutines of the code under test
// that wait on something other than that clock:
//
//	retrytest: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
//	retry schedule (3 attempts):
//	    attempt  delay  at     want            result
//	    1        0s     0s     0s              503 Service Unavailable
//	    2        100ms  100ms  [50ms, 150ms]   503 Service Unavailable
//	  > 3        450ms  550ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
//
// Durations print as "1.5s", never in nanoseconds, and the text does not
// vary between runs.
//
// # Where the rest lives
//
// retrytest checks; the fixtures that produce what it checks live beside
// it: the fake clock (fakeclock), the recorders of sleeps, attempts and a
// call's return (recorder), the scripted HTTP transport and the
// idempotency ledger (httpscript), the synctest helpers (bubble), and the
// whole contract in one call (retrytest/conformance). For leaks, use
// go.uber.org/goleak as it is: retrykit's fakes need no ignore option.
package retrytest
