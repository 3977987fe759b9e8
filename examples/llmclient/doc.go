// Package llmclient is seed 003 of retrykit, end to end: a client for an
// LLM-style API that backs off on 429 responses, tested on a fake clock the
// way Vitest's fake timers test it — start the call, advance the clock,
// assert — with every boundary exact: nothing before the first attempt,
// one call at 499ms and two at 500ms.
//
// # The code
//
// [WithBackoff] retries an operation on 429s and server errors. Its delays
// are min(MaxDelay, Base·2^(n-1)) scaled by 0.5 + Random()/2: 500ms, 1s,
// 2s, 4s, 8s, 8s with Random at the top of its range. A server's
// Retry-After wins over the curve, in seconds or as an HTTP-date, capped at
// MaxRetryAfter; a malformed one falls back to the curve. A Budget bounds
// the whole call, cutting a wait short. [Options] carries its seams, a
// [github.com/jonboulle/clockwork.Clock] and a random source, with real
// defaults. [Client] calls a chat-completions endpoint with it.
//
// The Budget is a context made with
// [github.com/retrykit/retrykit/clockctx.WithTimeout] on the Options' clock,
// so it passes on fake time in a test and on real time in production.
// clockwork.WithTimeout would be wrong here: for any clock but clockwork's
// own fake, it silently returns a context on real time.
//
// # What the tests show
//
// Each test starts the call on its own goroutine, without waiting for it,
// and drives a [github.com/retrykit/retrykit/fakeclock.Clock] with Step
// (AdvanceAndDrain that fails the test if the code does not settle), which
// fires each timer at its deadline and lets the woken code run until it
// waits again. The scripted transport
// ([github.com/retrykit/retrykit/httpscript.Transport]) times the requests on
// the same clock and is what the checks read:
//
//   - no sleep before the first attempt; one request at 499ms, two at
//     500ms; requests at 0, 500ms and 1.5s;
//   - "Retry-After: 7" waits exactly 7s; an HTTP-date is read against a
//     time pinned with Clock.Set; "86400" is clamped; a malformed value
//     falls back to the computed delay, never a hot loop;
//   - the random source pinned at either end
//     ([github.com/retrykit/retrykit/seqrand.Max], seqrand.Min) gives exact
//     sequences, and a seeded one 1,000 delays in their band, growing;
//   - 500ms, 1s, 2s, 4s, 8s, 8s: the sixth delay stays at the ceiling, at
//     both ends of the jitter, and a ceiling that is not Base·2^k holds;
//   - MaxAttempts runs out with no wait after the last attempt;
//   - a 408, a 409, a 429 and a 5xx are retried, any other 4xx is not, and
//     only a 429's or a 503's Retry-After is read;
//   - a total budget aborts the loop in the middle of a wait
//     ([github.com/retrykit/retrykit/retrytest.CheckStopped]).
//
// The old implementations are kept in buggy.go ([WithBackoffSleepFirst],
// [WithBackoffClampedExponent], [WithBackoffConstantDelay],
// [WithBackoffNaNRetryAfter]); a test runs the same checks against them and
// requires each to fail, and the package Examples pin the failure messages.
package llmclient
