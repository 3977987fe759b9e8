// Package withretry is seed 001 of retrykit, end to end: a retry helper
// whose sleep and random source are parameters, tested by recording the
// delays it asks for instead of waiting them — and a vendor-style client
// that calls the time package itself, tested inside a testing/synctest
// bubble.
//
// # The code
//
// [WithRetry] calls a function until it succeeds, fails for good, or has
// been called Options.Attempts times, waiting between attempts a delay
// drawn with full jitter under a ceiling that doubles from Options.Base and
// is clamped to Options.Max before the jitter is drawn. A server's
// Retry-After replaces the computed delay. Its [Deps] — Sleep, Random and
// Now — default to the real thing. [Client] is an HTTP client built on it,
// sending one Idempotency-Key with every attempt of a POST.
// [VendorClient] stands for a vendor SDK: it retries by itself, on timers
// of the time package, with no seam at all.
//
// # What the tests show
//
// With a [github.com/retrykit/retrykit/recorder.Recorder] as Sleep and a
// [github.com/retrykit/retrykit/seqrand.Source] as Random, the tests assert
// exactly, in microseconds, with Gomega and
// [github.com/retrykit/retrykit/matchers]:
//
//   - five attempts are four waits, and five is the default;
//   - both edges of every jitter window, with the endpoint sources
//     (seqrand.Endpoints), and a ladder long enough for the ceiling to
//     reach Max: clamped to 30s before the jitter;
//   - a 400 is not retried; through real responses, a 429 and a 5xx are,
//     a 4xx is not and a 3xx is no error;
//   - success on attempt 3 after exactly 2 waits;
//   - a Retry-After in seconds and as an HTTP-date overrides the computed
//     delay, "0" included; one over five minutes is clamped to five, and a
//     malformed one falls back to the computed delay;
//   - a context that ends during the wait stops the retries, with the
//     recorder as Sleep and with the real sleep in a synctest bubble
//     ([github.com/retrykit/retrykit/retrytest.CheckStopped]);
//   - a retried POST is applied once
//     ([github.com/retrykit/retrykit/httpscript.Ledger]);
//   - the vendor client's delays lie within their windows, measured inside a
//     synctest bubble by the scripted transport
//     ([github.com/retrykit/retrykit/httpscript.Transport]), and it honours
//     a Retry-After of up to 60 seconds;
//   - retries nested in retries multiply, counted at the transport.
//
// The old implementations are kept in buggy.go
// ([WithRetryExponentFromRetryCount], [WithRetryCountingRetries]); a test
// runs the same checks against them and requires each to fail, and the
// package Examples pin the failure messages.
package withretry
