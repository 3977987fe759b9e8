// Package retrykit is a toolkit for testing retry and backoff code in Go:
// exactly, instantly, without flakes and without leaked timers. The root
// package holds no code; the tools live in its sub-packages.
//
// Retry code is easy to write and almost never tested, because testing it
// seems to require waiting. The bugs that cause real incidents hide
// there: jitter added after the cap, a 60s cap meant to be 60min, a 429
// without Retry-After retried at once, an exponent off by one, a sleep
// before the first attempt, a malformed Retry-After turned into a hot
// loop, nested retries multiplying requests. retrykit lets a test assert
// the whole schedule, both edges of every jitter window, the instant of
// each attempt, the server's hints, the requests that reached the
// transport and the load a recovering server receives, in microseconds.
//
// # Which package to reach for
//
// Pick by the seam your retry code offers:
//
//   - It takes a clock ([github.com/jonboulle/clockwork.Clock]): pass a
//     [github.com/retrykit/retrykit/fakeclock.Clock] and Step it: it fires
//     timers in order and lets the woken code run until it waits again, so
//     a test can assert "nothing at 499ms, the retry at exactly 500ms".
//     Production code makes its deadlines with
//     [github.com/retrykit/retrykit/clockctx].
//   - It takes a sleep function or records attempts: a
//     [github.com/retrykit/retrykit/recorder.Recorder] records every delay
//     and returns at once; a recorder.Stopwatch times attempts, a
//     recorder.Call a call's return.
//   - It takes a random source: pin it with
//     [github.com/retrykit/retrykit/seqrand] (Min, Max, Seeded).
//   - It calls the time package itself (most libraries and SDK clients):
//     run it in a testing/synctest bubble with the helpers of
//     [github.com/retrykit/retrykit/bubble].
//   - It sends HTTP: script the server with
//     [github.com/retrykit/retrykit/httpscript] ("429 with Retry-After: 7
//     once, then 200"), which records every request and holds the
//     idempotency ledger, as a RoundTripper or over a real connection.
//   - It calls gRPC: grpcscript and grpcconformance, in the nested module
//     retrytest/conformance/grpcsuite, script the server and check the client.
//
// The checks of [github.com/retrykit/retrykit/retrytest] read any of these
// as a Schedule and hold it to a declared retrytest.Policy: CheckX
// returns an error, AssertX reports through t; a failure prints the whole
// schedule as a table and marks the offending attempt. The Gomega matchers
// of [github.com/retrykit/retrykit/matchers] wrap them.
// [github.com/retrykit/retrykit/retrytest/conformance] checks a policy, a
// loop, an HTTP client or a Retry-After parser against the whole contract
// of a retry in one call, a pass only for what it watched.
// [github.com/retrykit/retrykit/retrytest/policysim] runs a fleet through
// an outage and advises a policy. [github.com/retrykit/retrykit/retryafter]
// reads server wait hints, clamped, never a zero delay when malformed.
//
// # Layout
//
// Imports go down these layers, never up or across (layers_test.go holds
// the module to them):
//
//	matchers, retrytest/conformance          the Gomega matchers; the suite
//	httpscript, bubble, retrytest/policysim  on retrytest and the leaves
//	retrytest                                the checks; recorder below it
//	fakeclock                                on clockctx and internal/settle
//	seqrand, retryafter, clockctx, recorder  leaves
//	internal/...                             settle; goheader, schedcheck,
//	                                         chart, circuit; epoch, satdur…
//
// retrytest links neither the fake clock nor the settle oracle, and
// clockctx and retryafter (the production side) link no test machinery.
// The main module depends on clockwork, testify, gomega and goleak only;
// the recipes, SDK clients, job frameworks, the Ginkgo example, the
// scripted gRPC server and the tools live in nested modules.
// docs/design.md keeps the reasons.
//
// The examples directory holds complete scenarios: a webhook worker with a
// pure retry policy (examples/webhook), a WithRetry helper with injected
// sleep and random functions (examples/withretry), an LLM client backing
// off on 429 (examples/llmclient), and the fleet simulation behind
// "go run ./examples/fleetsim" (-preset river or asynq for a job
// framework's default policy, -breakers 100 for a circuit breaker in each
// of 100 clients). The nested module examples/jobs runs seed 000 on River
// (SQLite) and asynq (Redis), each scheduled retry read back and checked.
package retrykit
