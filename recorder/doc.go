// Package recorder provides a sleep recorder: a stand-in for the sleep
// function of retry code that records each requested delay instead of
// waiting, so a test can assert the whole schedule exactly and at once.
//
// # Injecting it
//
// Retry code whose seam is a sleep function takes one of these shapes, and
// a [*Recorder] fits each of them:
//
//	func(time.Duration)                          rec.Sleep
//	func(context.Context, time.Duration) error   rec.SleepContext
//	interface{ After(time.Duration) <-chan time.Time }   rec (avast/retry-go's Timer)
//
// All three record the delay and return at once. SleepContext returns
// ctx.Err() without recording anything when ctx is already done. Zero and
// negative delays are recorded as given, never clamped, so a schedule that
// computes a negative wait shows it.
//
// # Attempts and delays
//
// [Recorder.Delays] is the list of every delay recorded. To see which delay
// came before which attempt, also call [Recorder.Attempt] at the start of
// every attempt (and, optionally, [Recorder.AttemptResult] at its end):
// [Recorder.Attempts] then reports each attempt's 1-based index, the delay
// before it (the sum, if several waits were recorded in between) and its
// offset in virtual time, the sum of every delay recorded before it. The
// first attempt normally has delay 0 and offset 0; five attempts normally
// have four delays between them. Every sum (a delay, an offset, the total)
// saturates at the largest Duration rather than wrapping around, so after
// a wait of retryafter.Forever the offsets stay at that value instead of
// turning negative.
//
// A delay recorded after the last attempt belongs to no attempt. It is the
// classic bug of sleeping after the final attempt before giving up, so the
// schedule table of [Recorder.String] shows every such delay, a zero one
// included: a last row with attempt "-" holds their sum and the summary
// line counts them. The delay and attempt checks of
// [github.com/retrykit/retrykit/retrytest] and
// [github.com/retrykit/retrykit/matchers] read each of these delays
// ([Recorder.RetrySchedule]) and fail on any, a Sleep(0) included. A
// recorder used without Attempt still records Delays, and its table lists
// one row per delay; the checks then read its n delays as n+1 attempts. A
// recorder that recorded nothing made no attempt.
//
// # Printing
//
// [Recorder.String] and [Recorder.GomegaString] print a summary line and the
// schedule as a table (the one formatter every retrykit failure message
// uses), so a failing Gomega assertion on a recorder, or a plain
// fmt.Println(rec), shows the schedule:
//
//	recorder: 3 attempts, 3 delays, total 7s; 1 delay (4s) after the last attempt
//	  attempt  delay  at  result
//	  1        0s     0s  503 Service Unavailable
//	  2        1s     1s  503 Service Unavailable
//	  3        2s     3s  503 Service Unavailable
//	  -        4s     7s  (1 delay after the last attempt)
//
// # Concurrency
//
// A Recorder is safe for concurrent use. Calls are recorded in the order
// they take its lock, and Delays and Attempts return copies. Pair it with
// [github.com/retrykit/retrykit/seqrand] to pin the random source that
// picks each delay, and check the schedule with
// [github.com/retrykit/retrykit/retrytest] or
// [github.com/retrykit/retrykit/matchers].
package recorder
