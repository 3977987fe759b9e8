// Package openaigo runs the built-in retries of
// [github.com/openai/openai-go/v3] (v3.98.0) through retrykit's
// conformance suite, against what the client's README, option docs and
// source claim, each gap it has pinned by a waiver that cites the line.
//
// # The seam
//
// The client takes an *http.Client (option.WithHTTPClient), so the suite's
// scripted transport answers its requests; it waits with time.NewTimer and
// draws its jitter from the math/rand global, so the suite runs it in a
// testing/synctest bubble (conformance.RunInBubble). The adapter is a
// client over Seams.Transport and one Client.Post per call, the request's
// context and body passed on:
//
//	c := openai.NewClient(option.WithAPIKey("sk-test"), option.WithBaseURL("https://api.example.com/v1/"),
//		option.WithHTTPClient(&http.Client{Transport: s.Transport}))
//	err := c.Post(req.Context(), "items", nil, nil, option.WithRequestBody("application/json", body), option.WithResponseInto(&resp))
//
// The verdict depends on the status and the x-should-retry header, never on
// the body, so the suite's empty error bodies stand for OpenAI's.
//
// # What it claims
//
// README.md:1187-1191 and option/requestoption.go:109-130: two retries by
// default (3 attempts), "a short exponential backoff" — 0.5s·2^k capped at
// 8s (DefaultMaxServerDelay), less up to a quarter of it drawn from the
// math/rand global (internal/requestconfig/requestconfig.go:567-577) — of
// every connection error, 408, 409, 429 and every status from 500 (501
// included); Retry-After-Ms, then Retry-After (seconds or an HTTP-date),
// honoured up to 2 minutes, a longer one ending the retries
// (requestconfig.go:426-504).
//
// # Gaps
//
// The tests pin them, each a waiver of the one case that fails.
// Retry-After is read as an RFC 1123 date only (requestconfig.go:459), so
// RFC 850 and asctime dates, which RFC 9110 §5.6.7 says a recipient must
// accept, fall back to the backoff; and time.Parse takes any zone
// abbreviation, one it does not know for GMT, so a date in CEST is read
// two hours late, beyond the 2m ceiling, and the retries end.
//
// WithRequestTimeout, "a per-retry timeout" (README.md:943-944), is not
// one: an attempt whose timeout expires ends the call with
// context.DeadlineExceeded (requestconfig.go:695-700). And the wait
// before the next attempt runs on that attempt's context
// (requestconfig.go:666-668, 727), so a backoff or a Retry-After longer
// than what is left of the timeout ends the call too, the server's answer
// lost (TestPitfallWaitOnTheAttemptsTimeout).
//
// In the configuration with a per-attempt timeout, the suite's hung
// request ends when its context does, as net/http's Transport ends it.
package openaigo
