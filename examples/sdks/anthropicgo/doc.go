// Package anthropicgo runs the built-in retries of
// [github.com/anthropics/anthropic-sdk-go/v2] (v2.15.0) through retrykit's
// conformance suite, against what the client's option docs and source
// claim, each gap it has pinned by a waiver that cites the line.
//
// # The seam
//
// The client takes an *http.Client (option.WithHTTPClient), so the suite's
// scripted transport answers its requests; it waits with time.After and
// draws its jitter from the math/rand global, so the suite runs it in a
// testing/synctest bubble (conformance.RunInBubble). The adapter is a
// client over Seams.Transport and one Client.Post per call, the request's
// context and body passed on:
//
//	c := anthropic.NewClient(option.WithAPIKey("sk-ant-test"), option.WithBaseURL("https://api.example.com/"),
//		option.WithHTTPClient(&http.Client{Transport: s.Transport}))
//	err := c.Post(req.Context(), "v1/items", nil, nil, option.WithRequestBody("application/json", body), option.WithResponseInto(&resp))
//
// The verdict depends on the status and the x-should-retry header, never on
// the body, so the suite's empty error bodies stand for Anthropic's.
//
// # What it claims
//
// option/requestoption.go:217-223: two retries by default (3 attempts).
// The source (internal/requestconfig/requestconfig.go, shared with
// openai-go's by the generator that wrote both, but diverged since):
// 0.5s·2^k capped at 8s, less up to a quarter of it drawn from the
// math/rand global (requestconfig.go:407-414), of every connection error,
// 408, 409, 429 and every status from 500, 501 included
// (requestconfig.go:283-286); Retry-After-Ms, then Retry-After (seconds
// or an HTTP-date), with no ceiling (requestconfig.go:311-364, 404).
//
// # Gaps
//
// The tests pin them, each a waiver of the one case that fails:
//
//   - Retry-After is read as an RFC 1123 date only (requestconfig.go:341),
//     so RFC 850 and asctime dates fall back to the backoff, and a date in
//     a zone time.Parse does not know (CEST) is read as GMT, two hours
//     late;
//   - a negative hint, NaN, or one too large for a Duration becomes an
//     immediate retry: the seconds are converted unchecked
//     (requestconfig.go:356), then raised to 0 (requestconfig.go:404). The
//     conversion of NaN and of a float beyond int64 is
//     implementation-dependent in Go (amd64 gives the smallest int64), so
//     the pins are amd64's;
//   - the backoff is converted to a Duration before its cap
//     (requestconfig.go:408-411), so from retry count 35 on it overflows
//     and rand.Int63n panics (requestconfig.go:413): with
//     WithMaxRetries(40), the caller's goroutine panics after the 36th
//     attempt (TestPitfallBackoffPanicsAfter35Retries).
//
// In the configuration with a per-attempt timeout, the suite's hung
// request ends when its context does, as net/http's Transport ends it.
package anthropicgo
