// Package retrygo is the recipe for testing the retry settings of
// [github.com/avast/retry-go/v4] (v4.7.0) with retrykit, with a sleep recorder
// or a fake clock.
//
// # The seam
//
// retry-go waits on a timer, interface{ After(time.Duration) <-chan
// time.Time }, set with [github.com/avast/retry-go/v4.WithTimer]. Two
// retrykit types satisfy it as they are:
//
//   - a [github.com/retrykit/retrykit/recorder.Recorder] records each wait and
//     fires at once, so retry.Do runs its whole schedule on the test's
//     goroutine: retry.Do(op, retry.WithTimer(rec));
//   - a [github.com/retrykit/retrykit/fakeclock.Clock] makes each wait a timer
//     on fake time, for tests of when attempts happen: run retry.Do in a
//     goroutine and drive the clock with Clock.Step, which fires each wait
//     at its deadline and lets retry.Do run until it waits again.
//
// retry.Do waits with select on the timer's After and the context's Done.
// Canceled during a wait, it returns at once and leaves that After pending
// on the fake clock; nothing can receive from it any more, so the clock's
// leak check at the end of the test does not count it.
//
// # The formula the windows follow
//
// retry.Do numbers the first retry n = 1, and the delay is DelayType(n),
// clamped to MaxDelay when set. So:
//
//   - the default, CombineDelay(BackOffDelay, RandomDelay), waits
//     Delay·2^(n−1) plus [0, MaxJitter) — additive jitter, 100ms·2^k to
//     100ms·2^k+100ms with the defaults, ten attempts in all: the ladder is
//     retrytest.Policy{First: delay, Cap: maxDelay, Jitter:
//     retrytest.AddedJitter, JitterAmount: maxJitter, CapAfterJitter: true,
//     OpenTop: true, Attempts: attempts};
//   - the cap comes after the jitter: with MaxDelay the schedule goes flat at
//     the cap and loses its jitter;
//   - FullJitterBackoffDelay draws from [0, min(Delay·2^n, MaxDelay)) with n
//     from 1, so the first retry draws from [0, 2·Delay): the ladder is
//     retrytest.Policy{First: delay, Cap: maxDelay, Jitter:
//     retrytest.FullJitter, FirstExponent: 1, OpenTop: true, Attempts:
//     attempts}.
//
// The jitter comes from the math/rand global; pin it with
// [github.com/retrykit/retrykit/seqrand.SeedMathRand] if a failure must be
// reproduced, otherwise check windows.
//
// # Known behaviour the tests pin
//
//   - OnRetry fires after the last attempt too: ten calls for nine waits
//     (avast/retry-go#31).
//   - MaxJitter(0) with the default DelayType panics in rand.Int63n (fixed in
//     v5).
//   - Cancellation during the wait returns every attempt's error and the
//     context's (a retry.Error that errors.Is matches against both).
//   - There is no Retry-After support. A DelayType of your own can return
//     the server's hint; MaxDelay then clamps the hint as well.
package retrygo
