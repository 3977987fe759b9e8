// Package sethvargo is the recipe for testing the retry settings of
// [github.com/sethvargo/go-retry] (v0.5.0) with retrykit, inside a
// testing/synctest bubble.
//
// # The seam
//
// go-retry takes no clock: Do waits on time.NewTimer, and WithMaxDuration
// reads time.Now. So the test runs the real loop inside
// [testing/synctest.Test], where those waits take no real time, and times the
// attempts with a [github.com/retrykit/retrykit/recorder.Stopwatch]:
//
//	synctest.Test(t, func(t *testing.T) {
//		sw := recorder.NewStopwatch()
//		b := retry.WithMaxRetries(5, retry.WithCappedDuration(3*time.Second, retry.NewExponential(500*time.Millisecond)))
//		_ = retry.Do(t.Context(), b, func(ctx context.Context) error { sw.Attempt(); return retry.RetryableError(call(ctx)) })
//		retrytest.AssertDelaysWithin(t, sw, retrytest.Policy{First: 500 * time.Millisecond, Cap: 3 * time.Second, Attempts: 6}.Windows()...)
//	})
//
// Build the Backoff inside the bubble: WithMaxDuration reads time.Now when it
// is built, so one built outside measures the bubble's clock (which starts in
// 2000) against real time, and its budget never runs out. A test pins that
// pitfall; [github.com/retrykit/retrykit/bubble.CheckTime] catches
// the same mistake in your own policies.
//
// # The formula the windows follow
//
// NewExponential(base) waits base·2^k before retry k (from 0), with no cap and
// no end; NewFibonacci(base) waits 1, 2, 3, 5, 8 … × base (not the 1, 1, 2, 3,
// 5 of the README). The middlewares wrap each other, and their order decides
// the ladder:
//
//   - WithJitterPercent(p, WithCappedDuration(c, …)) caps before the jitter,
//     so a delay may exceed the cap by p%: retrytest.Policy{First: base,
//     Cap: c, Jitter: retrytest.FactorJitter, JitterFactor: p/100,
//     Attempts: n, Tolerance: time.Nanosecond} — the nanosecond because the
//     percentage moves in whole steps and the product is truncated;
//   - WithCappedDuration(c, WithJitterPercent(p, …)) caps after it: add
//     CapAfterJitter: true.
//
// WithMaxRetries counts retries: WithMaxRetries(5, …) makes 6 attempts.
// WithMaxDuration trims the last wait to what is left of its budget. The
// jitter comes from the math/rand/v2 global, which cannot be seeded: check
// windows.
//
// # Retry-After
//
// go-retry has none, and a Backoff's Next gets neither the error nor the
// attempt number: a hint can only reach it through state the operation
// shares with a middleware of your own.
package sethvargo
