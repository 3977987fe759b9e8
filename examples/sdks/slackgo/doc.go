// Package slackgo runs the built-in retries of [github.com/slack-go/slack]
// (v0.36.0) through retrykit's conformance suite, against what the
// client's README and doc comments claim, each gap it has pinned by a
// waiver that cites the line.
//
// # The seam
//
// The client takes an HTTP client (OptionHTTPClient), so the suite's
// scripted transport answers its requests; it waits with time.NewTimer
// and draws its jitter from the math/rand/v2 global, so the suite runs it
// in a testing/synctest bubble (conformance.RunInBubble). The adapter is
// a client over Seams.Transport, the retry option after it as
// slack.go:172-175 asks, and one chat.postMessage per call, with the
// request's context; its transport gives a success the body Slack's API
// sends:
//
//	api := slack.New("xoxb-test", slack.OptionHTTPClient(&http.Client{Transport: s.Transport}),
//		slack.OptionAPIURL("https://slack.example.com/api/"), slack.OptionRetry(3))
//	_, _, err := api.PostMessageContext(req.Context(), "C0123456789", slack.MsgOptionText("retrykit", false))
//
// The verdict depends on the status and the error only (retry.go:113-156,
// 297-307), never on the body, so the suite's empty error bodies stand
// for Slack's.
//
// # What it claims
//
// README.md:78-84: retries are off by default; OptionRetry(n) retries
// 429 only, OptionRetryConfig gives "full control (connection, 429,
// opt-in 5xx)". The source (retry.go:29-175, internal/backoff): a 429
// waits its Retry-After in seconds, at least 1s, or RetryAfterDuration,
// 60s, when it is "missing or invalid", plus up to 1s of jitter; with
// the connection handler, a reset, a refused connection or an EOF is
// retried, and with the server-error handler every 5xx, each after a
// backoff of 100ms doubling under a 30s cap, plus up to 50ms. A Rule
// states it: the jitter is added to the hint or the 60s fallback, and
// what no handler takes ends the call — with the default handler a 5xx
// and a connection error, with the connection handler an I/O timeout,
// which none of its three tests names (retry.go:297-307).
//
// # Gaps
//
// The tests pin them, each a waiver of the one case that fails:
//
//   - Retry-After is read with strconv.ParseInt alone (retry.go:121-123):
//     an HTTP-date, which RFC 9110 §10.2.3 allows, is taken for missing
//     and waits the 60s fallback, a date already past included;
//   - the seconds are multiplied into a Duration unchecked (retry.go:125):
//     a hint no Duration holds wraps to a negative wait, which the 1s
//     floor turns into a retry after 1–2s (retry.go:131);
//   - a negative Retry-After, invalid in RFC 9110, is taken for 0 and
//     waits 1s (retry.go:123-128), where an invalid hint is to wait
//     RetryAfterDuration (retry.go:56-57).
//
// Slack's API sends its hints in seconds, so in production only a proxy
// or a misbehaving server meets these.
package slackgo
