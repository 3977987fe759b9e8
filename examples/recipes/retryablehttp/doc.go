// Package retryablehttp is the recipe for testing the retry settings of
// [github.com/hashicorp/go-retryablehttp] (v0.7.8) with retrykit, inside a
// testing/synctest bubble with the scripted transport.
//
// # The seam
//
// go-retryablehttp takes no clock (its timeNow is unexported) and waits on
// time.NewTimer, so the test runs the real client inside
// [testing/synctest.Test], where the waits take no real time. Its HTTPClient
// is the seam for the server: a
// [github.com/retrykit/retrykit/httpscript.Transport] answers from a script,
// records when each request arrived on the bubble's clock, and is the
// provider the checks read:
//
//	synctest.Test(t, func(t *testing.T) {
//		tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200))
//		c := retryablehttp.NewClient()
//		c.HTTPClient, c.Logger = tr.Client(), nil
//		resp, err := c.Get(url)
//		// ...
//		retrytest.AssertDelays(t, tr, 7*time.Second)
//	})
//
// Never point a client inside a bubble at a real socket with keep-alive
// (httptest.Server and the default pooled transport): the idle connection's
// goroutine is not durably blocked and the bubble's clock never moves
// (golang/go#78492). The scripted transport opens no socket.
//
// # The formula the windows follow
//
// DefaultBackoff waits RetryWaitMin·2^k before retry k (from 0), replaced by
// RetryWaitMax once above it, with no jitter: retrytest.Policy{First: min,
// Cap: max, Attempts: attempts}.Windows() gives exact windows. RetryMax
// counts retries, so RetryMax+1 attempts. LinearJitterBackoff seeds its
// source from time.Now on every call, so inside a bubble, where time is the
// same on every run, its "random" schedule is the same on every run too.
//
// # Retry-After
//
// DefaultBackoff reads Retry-After on 429 and 503 only, the first field line,
// as integer seconds or an RFC 1123 date, and returns it as it is. The tests
// pin the gaps:
//
//   - no clamp to RetryWaitMax: a hint of 3600 waits an hour
//     (hashicorp/go-retryablehttp#247);
//   - 9223372037 and larger overflow time.Second·n to a negative wait, which
//     means an immediate retry;
//   - a date in the past means no wait at all, and the RFC 850 and asctime
//     date forms are not read (the backoff is used instead).
//
// The same tests run every case through a Backoff built on
// [github.com/retrykit/retrykit/retryafter.Limits] — every date form, clamped to
// [RetryWaitMin, RetryWaitMax], DefaultBackoff as the fallback — which closes
// each gap.
package retryablehttp
