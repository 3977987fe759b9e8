// Package backoffv5 is the recipe for testing the retry settings of
// [github.com/cenkalti/backoff/v5] (v5.0.3) with retrykit, inside a
// testing/synctest bubble.
//
// # The seam
//
// backoff v5 removed v4's Clock and Timer: Retry waits on time.NewTimer and
// measures MaxElapsedTime with time.Now, and the option that would replace the
// timer is unexported (cenkalti/backoff#171). So the test runs the real loop
// inside [testing/synctest.Test], where those waits take no real time, and
// times the attempts with a [github.com/retrykit/retrykit/recorder.Stopwatch]:
//
//	synctest.Test(t, func(t *testing.T) {
//		sw := recorder.NewStopwatch()
//		_, err := backoff.Retry(t.Context(), func() (T, error) { sw.Attempt(); return call() }, opts...)
//		retrytest.AssertDelaysWithin(t, sw, windows...)
//	})
//
// Build the BackOff and the context inside the bubble, so that they read the
// bubble's clock.
//
// # The formula the windows follow
//
// As in v4: the delay before retry k (from 0) is drawn from [I·(1−RF),
// I·(1+RF)+1ns) with I = min(InitialInterval·Multiplier^k, MaxInterval), the
// cap before the jitter, so
//
//	retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: maxInterval,
//		Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: attempts,
//		Tolerance: time.Nanosecond}.Windows()
//
// The jitter comes from the math/rand/v2 global, which cannot be seeded: check
// windows, or set RandomizationFactor to 0 for an exact schedule. WithMaxTries
// counts attempts, not retries (cenkalti/backoff#161).
//
// # Retry-After
//
// The operation returns [github.com/cenkalti/backoff/v5.RetryAfter](seconds):
// whole seconds, no parsing, so turn the header into seconds yourself —
// [github.com/retrykit/retrykit/retryafter] does it safely. The tests pin what
// the library then does:
//
//   - the hint replaces the delay and resets the BackOff, so the next ordinary
//     delay starts again at InitialInterval;
//   - a hint longer than what is left of MaxElapsedTime (15 minutes by
//     default) makes Retry give up at once, without waiting, returning the
//     *RetryAfterError (cenkalti/backoff#159). Clamp hints first, for example
//     with a [github.com/retrykit/retrykit/retryafter.Limits].
package backoffv5
