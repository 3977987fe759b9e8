// Package retrykit is a toolkit for testing retry and backoff code in Go:
// exactly, instantly, without flakes and without leaked timers. The root
// package holds no code; the tools live in its sub-packages.
//
// Retry code is easy to write and almost never tested, because testing it
// seems to require waiting. The bugs that cause real incidents hide exactly
// there: jitter added after the cap (a whole fleet retries in the same
// second), a 60s cap meant to be 60min, a 429 without Retry-After retried
// at once, an exponent off by one, a sleep before the first attempt, a
// malformed Retry-After turning into a zero delay and a hot loop, nested
// retries multiplying requests. retrykit lets a test assert the whole
// schedule of delays, both edges of every jitter window, the exact instant
// of each attempt, the server's Retry-After, the number of requests that
// reached the transport and the load a recovering server receives — in
// microseconds of real time.
//
// # Which package to reach for
//
// Pick by the seam your retry code offers:
//
//   - The code takes a clock ([github.com/jonboulle/clockwork.Clock] or a
//     timer factory): pass a [github.com/retrykit/retrykit/fakeclock.Clock]
//     and drive it with Step (or AdvanceAndDrain, which returns an error
//     instead of failing the test): it fires timers in order and lets the
//     woken code run until it blocks again, so one call drives a whole retry
//     ladder and a test can assert "nothing at 499ms, the retry at exactly
//     500ms".
//   - The production code derives a deadline from that clock: use
//     [github.com/retrykit/retrykit/clockctx].WithTimeout instead of
//     clockwork.WithTimeout, which silently uses real time with any clock but
//     clockwork's own. clockctx imports only the standard library and
//     clockwork, so production binaries never link the fake clock.
//   - The code takes a sleep function (func(time.Duration) or
//     func(context.Context, time.Duration) error): pass a
//     [github.com/retrykit/retrykit/recorder.Recorder], which records every
//     delay and returns at once.
//   - The code takes a random source: pin it with
//     [github.com/retrykit/retrykit/seqrand] — Min and Max check both edges
//     of every jitter window, Seeded checks the distribution.
//   - The code calls the time package directly (most retry libraries do):
//     run the test inside a [testing/synctest] bubble and use the helpers
//     and the scripted HTTP transport of
//     [github.com/retrykit/retrykit/retrytest].
//
// Whatever produced the schedule — the fake clock, the recorder, the
// scripted transport, a stopwatch — is a
// [github.com/retrykit/retrykit/retrytest.Schedule], and the checks of
// [github.com/retrykit/retrykit/retrytest] read it: CheckX functions that
// return an error and AssertX functions that report through t, against the
// windows of a declared retrytest.Policy, with a scripted HTTP transport, an
// idempotency ledger and a check that a deadline, a budget or a cancel
// stopped the loop mid-wait. The Gomega matchers in
// [github.com/retrykit/retrykit/matchers] wrap the same checks, and
// [github.com/retrykit/retrykit/retrytest/policysim] runs pure policies,
// one job or a fleet through an outage.
// [github.com/retrykit/retrykit/retrytest/conformance] checks a team's own
// policy, loop or HTTP client against the whole contract of a retry in one
// call, each property a named subtest. A failure prints the whole schedule
// as a table and marks the offending attempt. Server wait hints
// (Retry-After in all three date forms, seconds, milliseconds and provider
// rate-limit headers) are parsed, clamped and never turned into a zero
// delay by [github.com/retrykit/retrykit/retryafter].
//
// # Layout
//
// Imports go one way. The leaves import only the standard library (and
// clockwork): seqrand, recorder, retryafter, clockctx and fakeclock.
// retrytest builds on them; retrytest/policysim, retrytest/conformance and
// matchers build on retrytest. Below everything, internal packages hold what several share:
// internal/settle (the settle oracle, the goroutine-dump parser, the socket
// inspection), internal/schedcheck and internal/schedfmt (the checks'
// engine and the one table formatter), internal/chart, internal/epoch,
// internal/satdur, internal/timerctx and, for tests, internal/golden and
// internal/faket (a fake of the testing.T the Assert forms report to). The
// main module depends on clockwork, testify, gomega and goleak only; the
// recipes, the SDK clients' checks (examples/sdks), the Ginkgo and
// testify shapes, and the tools live in nested modules.
//
// The examples directory holds complete scenarios: a webhook worker with a
// pure retry policy (examples/webhook), a WithRetry helper with injected
// sleep and random functions (examples/withretry), an LLM client backing
// off on 429 (examples/llmclient), and the fleet simulation behind
// "go run ./examples/fleetsim".
package retrykit
