// Package azcore runs the built-in retries of the Azure SDK for Go, the
// retry policy of [github.com/Azure/azure-sdk-for-go/sdk/azcore] (v1.24.0)
// that every Azure client's pipeline holds, through retrykit's conformance
// suite, against what its option docs and source claim, each gap it has
// pinned by a waiver that cites the line.
//
// # The seam
//
// No service client is needed: runtime.NewPipeline builds the pipeline
// every Azure client uses, retry policy included, over a
// policy.ClientOptions.Transport, which an *http.Client over the suite's
// transport is. The policy waits with time.After and draws its jitter from
// the math/rand global, so the suite runs it in a testing/synctest bubble
// (conformance.RunInBubble). The adapter sends one request per call, with
// the request's context and body:
//
//	pl := runtime.NewPipeline("retrykit", "v0.0.0", runtime.PipelineOptions{}, &policy.ClientOptions{
//		Transport: &http.Client{Transport: s.Transport}})
//	r, _ := runtime.NewRequest(req.Context(), req.Method, req.URL.String())
//	resp, err := pl.Do(r) // the last response: a 503 after the retries is a response, not an error
//
// The verdict depends on the status only (runtime/policy_retry.go:193-197),
// so the suite's empty error bodies stand for Azure's.
//
// # What it claims
//
// policy/policy.go:86-131: three retries by default (4 tries); a delay of
// RetryDelay (800ms) "increases exponentially with each retry up to the
// maximum specified by MaxRetryDelay" (60s) — (2^t − 1)·0.8s for try t,
// times a factor from [0.8, 1.3) drawn from the math/rand global, capped
// after the jitter (runtime/policy_retry.go:59-88); connection errors and
// 408, 429, 500, 502, 503 and 504 retried; Retry-After-Ms,
// x-ms-retry-after-ms, then Retry-After (seconds or an HTTP-date)
// (internal/shared/shared.go:44-103), one above MaxRetryDelay ending the
// retries (runtime/policy_retry.go:209-213).
//
// # Gaps
//
// The tests pin them, each a waiver of the one case that fails:
//
//   - Retry-After is read as an RFC 1123 date only
//     (internal/shared/shared.go:81), so RFC 850 and asctime dates fall
//     back to the backoff, and a date in a zone time.Parse does not know
//     (CEST) is read as GMT, two hours late, beyond MaxRetryDelay;
//   - the seconds are multiplied into a Duration unchecked
//     (internal/shared/shared.go:96): 9223372037 wraps to a negative
//     wait, and the backoff is used where a hint above MaxRetryDelay must
//     end the retries;
//   - the jitter comes before the cap (runtime/policy_retry.go:83-85), so
//     once the ceiling passes the cap every wait is exactly 60s: clients
//     that reach it retry in step (NoSpikeAtCap, in the configuration
//     whose tries reach the cap).
//
// In the configuration with a per-attempt timeout, the suite's hung
// request ends when its context does, as net/http's Transport ends it.
package azcore
