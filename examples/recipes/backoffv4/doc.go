// Package backoffv4 is the recipe for testing the retry settings of
// [github.com/cenkalti/backoff/v4] (v4.3.0) with retrykit, on a fake clock.
//
// # The seam
//
// backoff v4 is the one retry library that takes both a clock and a timer:
// [backoff.ExponentialBackOff] reads its Clock (set it with
// [backoff.WithClockProvider]) for MaxElapsedTime, and
// [backoff.RetryNotifyWithTimer] waits on a [backoff.Timer]. A
// [github.com/retrykit/retrykit/fakeclock.Clock] is a Clock as it is, and
// [github.com/retrykit/retrykit/clockctx.NewTimer] turns it into a Timer
// (its method set is backoff's), so the whole loop runs on fake time
// without a synctest bubble. The loop runs in a goroutine of its own, and
// the test drives the clock with
// [github.com/retrykit/retrykit/fakeclock.Clock.Step], which fires each wait
// at its deadline and lets the loop run until it waits again, so one Step
// runs the whole schedule:
//
//	clk := fakeclock.New(t)
//	sw := recorder.NewStopwatch().WithClock(clk) // times the attempts on clk
//	b := backoff.NewExponentialBackOff(backoff.WithClockProvider(clk))
//	call := recorder.Start(clk, func() error { return backoff.RetryNotifyWithTimer(op, b, nil, clockctx.NewTimer(clk)) })
//	clk.Step(time.Minute) // the call has returned, or waits past a minute
//	retrytest.AssertDelaysWithin(t, sw, windows...)
//
// An overall deadline is a [github.com/retrykit/retrykit/clockctx.WithTimeout]
// context on the same clock, given to backoff.WithContext; start the loop
// with [github.com/retrykit/retrykit/recorder.Start] and check where it
// stopped with [github.com/retrykit/retrykit/retrytest.CheckStopped].
//
// A recorder's Timer ([github.com/retrykit/retrykit/recorder.Recorder.InstantTimer])
// is the other way: it records each wait and fires at once, so the loop runs
// on the test's goroutine with no clock at all.
//
// # The formula the windows follow
//
// The delay before retry k (from 0) is drawn from [I·(1−RF), I·(1+RF)+1ns),
// where I = min(InitialInterval·Multiplier^k, MaxInterval): the cap applies
// before the jitter, so with the defaults (500ms, ×1.5, RF 0.5) a delay can
// reach 1.5×MaxInterval (cenkalti/backoff#117, #139). The matching ladder is
//
//	retrytest.Policy{First: 500 * time.Millisecond, Growth: 1.5, Cap: maxInterval,
//		Jitter: retrytest.FactorJitter, JitterFactor: 0.5, Attempts: attempts,
//		Tolerance: time.Nanosecond}.Windows()
//
// The first retry uses exponent 0. [backoff.WithMaxRetries] counts retries, so
// n retries are n+1 attempts (v5's WithMaxTries counts attempts). The jitter
// comes from the math/rand global, which no option replaces: check windows,
// or pin it with [github.com/retrykit/retrykit/seqrand.SeedMathRand].
//
// # Retry-After
//
// backoff v4 has no notion of a server's hint; a BackOff of your own that
// the operation feeds is the only way, and this recipe does not cover it.
package backoffv4
