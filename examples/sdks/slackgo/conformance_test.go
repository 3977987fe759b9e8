package slackgo_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The file:line citations are of github.com/slack-go/slack v0.36.0.

// The waits of DefaultRetryConfig (retry.go:68-78): a 429 without a
// readable Retry-After waits 60s (retry.go:56-57, 72, 120), a hint at
// least 1s (retry.go:29-31, 124-131), each plus up to 1s of jitter
// (retry.go:58-59, 73, 132-134); the backoff of a 5xx or a connection
// error starts at 100ms and doubles (retry.go:74,
// internal/backoff/backoff.go:38-41), capped at 30s before up to 50ms of
// jitter is added (retry.go:62-65, 75-76, backoff.go:47-53).
const (
	fallback      = 60 * time.Second
	minHint       = time.Second
	hintJitter    = time.Second
	backoffFirst  = 100 * time.Millisecond
	backoffCap    = 30 * time.Second
	backoffJitter = 50 * time.Millisecond
)

// fallbackLadder is the wait after a 429 with no hint, retry after retry:
// 60s plus rand.N(1s) from the math/rand/v2 global (retry.go:133), [60s,
// 61s).
func fallbackLadder(attempts int) retrytest.Policy {
	return retrytest.Policy{First: fallback, Growth: 1, Jitter: retrytest.AddedJitter, JitterAmount: hintJitter, OpenTop: true, Attempts: attempts}
}

// backoffLadder is the backoff of a 5xx or a connection error: a counter
// per call (retry.go:226-230) that each such retry advances
// (retry.go:99, 154; backoff.go:38-41, 56), plus rand.N(50ms)
// (backoff.go:51-53), [c, c+50ms).
func backoffLadder(attempts int) retrytest.Policy {
	return retrytest.Policy{First: backoffFirst, Cap: backoffCap, Jitter: retrytest.AddedJitter, JitterAmount: backoffJitter, OpenTop: true, Attempts: attempts}
}

// hintWait is what the rate-limit handler waits after a 429
// (retry.go:113-136): the hint, at least 1s, or 60s when there is no hint
// it may read, plus up to 1s drawn evenly.
func hintWait(r conformance.Retry) conformance.Want {
	h := fallback
	if r.HintOK {
		h = max(r.Hint, minHint)
	}
	if h > retryafter.Forever-hintJitter {
		// A hint no Duration holds with its jitter: a wait past the
		// suite's horizon.
		return conformance.Want{Window: retrytest.Window{Min: h, Max: retryafter.Forever}}
	}
	return conformance.Want{Window: retrytest.Window{Min: h, Max: h + hintJitter, Open: true}, Draw: conformance.DrawUniform}
}

// isConnError is the connection handler's test (retry.go:297-307): an
// error whose chain says "connection reset", "connection refused" or
// "EOF". An I/O timeout is none of them.
func isConnError(err error) bool {
	for ; err != nil; err = errors.Unwrap(err) {
		s := err.Error()
		if strings.Contains(s, "connection reset") || strings.Contains(s, "connection refused") || strings.Contains(s, "EOF") {
			return true
		}
	}
	return false
}

// defaultSpec is what OptionRetry(n) claims: DefaultRetryConfig with n
// retries and DefaultRetryHandlers, "429-only retries" (README.md:80,
// slack.go:160-170, retry.go:158-162).
func defaultSpec(attempts int) conformance.Spec {
	return conformance.Spec{
		// The ladder after the suite's transient failure: a 429 with no
		// hint, the one status retried.
		Policy: fallbackLadder(attempts),
		Rule: conformance.RuleFunc("a 429 waits its Retry-After (at least 1s), or 60s without one, plus up to 1s; nothing else is retried", func(r conformance.Retry) conformance.Want {
			if r.Cause.Status != 429 {
				// Only the rate-limit handler is there
				// (retry.go:158-162, 186-192): a connection error
				// is returned (retry.go:273-276), and so is any
				// other status (retry.go:252-253, 273-278).
				return conformance.Want{Final: true}
			}
			return hintWait(r)
		}),
		// The math/rand/v2 global (retry.go:133), which no seam reaches.
		OwnRandom: true,
		// 429 alone (retry.go:114, 158-162); every other 4xx and 5xx
		// ends the call with its response (retry.go:252-253, 273-278).
		Retryable: []int{429},
		Permanent: append(conformance.Statuses(4, 429), conformance.Statuses(5)...),
		// Retry-After on a 429 only (retry.go:114, 121), at least 1s
		// (retry.go:127, 131), no ceiling.
		Hints: &conformance.Hints{Statuses: []int{429}, Min: minHint, Max: retryafter.Forever},
	}
}

// allHandlersSpec is what the three built-in handlers claim together:
// AllBuiltinRetryHandlers, connection errors and 429 (retry.go:169-175),
// and NewServerErrorRetryHandler, every 5xx (retry.go:138-156).
func allHandlersSpec(attempts int) conformance.Spec {
	return conformance.Spec{
		// The ladder after the suite's transient failure, a 503.
		Policy: backoffLadder(attempts),
		Rule: conformance.RuleFunc("a 429 waits its Retry-After (at least 1s), or 60s without one, plus up to 1s; a 5xx, a reset or a refused connection the backoff; other errors are final", func(r conformance.Retry) conformance.Want {
			switch {
			case r.Cause.Status == 0 && !isConnError(r.Cause.Err):
				// The connection handler's test fails
				// (retry.go:92-94): the error is returned
				// (retry.go:273-276).
				return conformance.Want{Final: true}
			case r.Cause.Status == 0:
				// The connection handler: the backoff
				// (retry.go:88-101).
				return r.Default()
			case r.Cause.Status == 429:
				return hintWait(r)
			}
			// A 5xx, the server-error handler: the backoff
			// (retry.go:146-156); any other status is final (the
			// Permanent list, retry.go:252-253).
			return r.Default()
		}),
		// The math/rand/v2 global (retry.go:133, backoff.go:52).
		OwnRandom: true,
		// 429 (retry.go:114) and every status from 500, 501 included
		// (retry.go:147); any other 4xx ends the call (retry.go:252-253).
		Retryable: append([]int{429}, conformance.Statuses(5)...),
		Permanent: conformance.Statuses(4, 429),
		// Retry-After on a 429 only: the server-error handler waits its
		// backoff whatever the hint (retry.go:146-156).
		Hints: &conformance.Hints{Statuses: []int{429}, Min: minHint, Max: retryafter.Forever},
	}
}

// allHandlers is the RetryConfig of allHandlersSpec: DefaultRetryConfig
// with n retries, its handlers the three built-in ones.
func allHandlers(retries int) slack.RetryConfig {
	cfg := slack.DefaultRetryConfig()
	cfg.MaxRetries = retries
	cfg.Handlers = append(slack.AllBuiltinRetryHandlers(cfg), slack.NewServerErrorRetryHandler(cfg))
	return cfg
}

// posted is the body of a successful chat.postMessage.
const posted = `{"ok":true,"channel":"C0123456789","ts":"1700000000.000100","message":{"type":"message","text":"retrykit"}}`

// withPosted gives each successful response of rt the body Slack's API
// sends for a chat.postMessage: the suite sends a success with no body,
// which slack-go cannot parse.
type withPosted struct{ rt http.RoundTripper }

func (wp withPosted) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := wp.rt.RoundTrip(req)
	if err != nil || resp.StatusCode >= 300 {
		return resp, err
	}
	resp.Body.Close()
	resp.Body, resp.ContentLength = io.NopCloser(strings.NewReader(posted)), int64(len(posted))
	resp.Header.Set("Content-Type", "application/json")
	return resp, nil
}

// newClient returns the adapter: a client over the suite's transport
// (OptionHTTPClient, then the retry option, as slack.go:172-175 asks),
// and one chat.postMessage per call, with the request's context.
func newClient(retry slack.Option) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		api := slack.New("xoxb-test",
			slack.OptionHTTPClient(&http.Client{Transport: withPosted{s.Transport}}),
			slack.OptionAPIURL("https://slack.example.com/api/"),
			retry)
		return func(req *http.Request) (*http.Response, error) {
			if _, _, err := api.PostMessageContext(req.Context(), "C0123456789", slack.MsgOptionText("retrykit", false)); err != nil {
				return nil, err
			}
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
		}
	}
}

// The reasons of the waivers.
const (
	secondsOnly = "reads Retry-After with strconv.ParseInt alone (retry.go:121-123, its comment says so): an HTTP-date, which RFC 9110 §10.2.3 allows and so is neither missing nor invalid (retry.go:56), waits the 60s fallback instead of until the date"
	wraps       = "multiplies the seconds into a Duration unchecked (retry.go:125): 9223372037 wraps to a negative wait, raised to 1s (retry.go:131), so a hint no Duration holds retries after 1–2s"
	negative    = "takes a negative Retry-After, which RFC 9110 §10.2.3's delay-seconds (1*DIGIT) does not allow, for a 0 and waits 1s (retry.go:123-128), where an invalid one waits RetryAfterDuration, 60s (retry.go:56-57)"
)

// waivers are the gaps every configuration has: all are in the
// rate-limit handler's reading of Retry-After.
func waivers() []conformance.Option {
	return []conformance.Option{
		conformance.RunInBubble(),
		conformance.Waive("RetryAfterHTTPDate/imf-fixdate", secondsOnly),
		conformance.Waive("RetryAfterHTTPDate/rfc850", secondsOnly),
		conformance.Waive("RetryAfterHTTPDate/asctime", secondsOnly),
		conformance.Waive("RetryAfterFloored/past-date", secondsOnly),
		conformance.Waive("RetryAfterAbsurd/huge", wraps),
		conformance.Waive("RetryAfterAbsurd/negative", negative),
	}
}

// waived are the cases waivers waives, in the suite's order.
var waived = []string{
	"RetryAfterHTTPDate/imf-fixdate", "RetryAfterHTTPDate/rfc850", "RetryAfterHTTPDate/asctime",
	"RetryAfterFloored/past-date", "RetryAfterAbsurd/huge", "RetryAfterAbsurd/negative",
}

// notChecked are the properties every configuration skips: no Signals
// (the verdict is the status's, retry.go:113-156), no ceiling on a hint,
// Retry-After the only field read, no idempotency key, no Budget, no
// per-attempt timeout; and, in a bubble, the timers NoLeaks cannot list.
var notChecked = []string{"RetrySignals", "RetryAfterClamped", "HintFields", "IdempotencyKey", "BudgetHonoured", "AttemptTimeout", "NoLeaks/timers"}

// OptionRetry(3), the README's example (README.md:80-84): 429 only.
func TestConformanceOptionRetry(t *testing.T) {
	r := conformance.TestClient(t, defaultSpec(4), newClient(slack.OptionRetry(3)), waivers()...)
	conftable.SDKs.Pin(t, r, waived, append([]string{"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap"}, notChecked...))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/slack-go/slack", Name: "slack-go", Config: "`OptionRetry(3)`",
		Claims: "4 attempts; a 429 waits its `Retry-After` (seconds), at least 1s, or 60s without one, plus up to 1s (math/rand/v2); no other status, no connection error retried",
	}, r)
}

// The three built-in handlers, MaxRetries 3: connection errors, 429 and
// every 5xx.
func TestConformanceAllHandlers(t *testing.T) {
	r := conformance.TestClient(t, allHandlersSpec(4), newClient(slack.OptionRetryConfig(allHandlers(3))), waivers()...)
	conftable.SDKs.Pin(t, r, waived, append([]string{"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap"}, notChecked...))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/slack-go/slack", Name: "slack-go", Config: "`OptionRetryConfig`: `AllBuiltinRetryHandlers` + `NewServerErrorRetryHandler`",
		Claims: "4 attempts; a 5xx, a reset, a refused connection or an EOF waits 100ms doubling under a 30s cap, plus up to 50ms (math/rand/v2), an I/O timeout is not retried; a 429 as `OptionRetry(3)`",
	}, r)
}

// The same handlers, MaxRetries 10, whose 11 attempts reach the 30s cap
// at retry 10 (100ms·2^9 > 30s): the cap checked too.
func TestConformanceAllHandlersMaxRetries(t *testing.T) {
	r := conformance.TestClient(t, allHandlersSpec(11), newClient(slack.OptionRetryConfig(allHandlers(10))), waivers()...)
	conftable.SDKs.Pin(t, r, waived, append([]string{"WaitsOnTheClock", "JitterFromSource"}, notChecked...))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/slack-go/slack", Name: "slack-go", Config: "`OptionRetryConfig`: the three handlers, `MaxRetries: 10`",
		Claims: "as the three handlers, 11 attempts: the 30s cap reached at retry 10",
	}, r)
}
