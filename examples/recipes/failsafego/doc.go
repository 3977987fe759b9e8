// Package failsafego is the recipe for testing the retry settings of
// [github.com/failsafe-go/failsafe-go] (v0.9.8) with retrykit, inside a
// testing/synctest bubble.
//
// # The seam
//
// failsafe-go takes no clock (failsafe-go#18) and offers no way to keep its
// computed delay and skip the wait: a RetryPolicy waits on time.NewTimer and
// measures WithMaxDuration with time.Since. So the test runs the real executor
// inside [testing/synctest.Test], where the waits take no real time, and times
// the attempts with a [github.com/retrykit/retrykit/recorder.Stopwatch] — or,
// for failsafehttp, with the scripted
// [github.com/retrykit/retrykit/httpscript.Transport] as the client's
// transport:
//
//	synctest.Test(t, func(t *testing.T) {
//		sw := recorder.NewStopwatch()
//		rp := retrypolicy.NewBuilder[any]().WithBackoff(100*time.Millisecond, time.Second).WithMaxRetries(5).Build()
//		_ = failsafe.With[any](rp).Run(func() error { sw.Attempt(); return call() })
//		retrytest.AssertDelaysWithin(t, sw, retrytest.Policy{First: 100*time.Millisecond, Growth: 2, Cap: time.Second, Attempts: 6}.Windows()...)
//	})
//
// OnRetryScheduled announces each delay after jitter and trimming, so its
// events must equal what the stopwatch measured.
//
// # The formula the windows follow
//
// WithBackoff(delay, max) waits delay·2^k before retry k (from 0), capped at
// max; WithJitterFactor(f) then draws from (d·(1−f), d·(1+f)] around the
// capped delay d, so the cap comes before the jitter and a delay may exceed
// max: retrytest.Policy{First: delay, Cap: max, Jitter:
// retrytest.FactorJitter, JitterFactor: f, Attempts: attempts, Tolerance:
// time.Nanosecond}. WithMaxRetries counts retries, and the default is 2. The
// jitter comes from the math/rand/v2 global, which cannot be seeded: check
// windows.
//
// WithMaxDuration stops only once elapsed time is strictly above the budget.
// Inside a bubble no time passes while the operation runs, so elapsed lands
// exactly on the budget and the policy keeps retrying with no delay until
// WithMaxRetries stops it — with WithMaxRetries(-1) the test spins for ever.
// Bound every policy under test by retries.
//
// # Retry-After
//
// failsafehttp's DelayFunc reads Retry-After on 429 and 503 as integer
// seconds only: an HTTP-date falls back to the builder's delay, a negative
// value means no wait, and nothing is capped (3600 waits an hour); jitter,
// when configured, is added on top of the hint. The tests pin each case and
// run the same replies through a DelayFunc built on
// [github.com/retrykit/retrykit/retryafter.Limits], which reads dates and caps
// the hint.
//
// # The circuit breaker
//
// breaker_conformance_test.go holds failsafe-go's circuitbreaker, under
// failsafehttp, to conformance.TestBreakerClient: its defaults (one
// failure opens it, one success closes it, open a minute, half-open at
// exactly trip+1m; a failure is an error, so a 5xx response never opens
// it), a team's HandleIf with WithFailureThreshold(3) (three failed probes
// to open it again, where one is expected: waived with its line), and the
// retry policy around the breaker, which waits its backoff between
// attempts the open breaker fails fast, or stops with AbortOnErrors.
package failsafego
