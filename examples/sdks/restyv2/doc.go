// Package restyv2 runs the built-in retries of
// [github.com/go-resty/resty/v2] (v2.17.2) through retrykit's conformance
// suite, against what the client's README and doc comments claim, each gap
// it has pinned by a waiver that cites the line.
//
// # The seam
//
// The client takes a transport (Client.SetTransport), so the suite's
// scripted transport answers its requests; it waits with time.After and
// draws its jitter from a private *rand.Rand seeded with the time
// (retry.go:227-243), so the suite runs it in a testing/synctest bubble
// (conformance.RunInBubble). The adapter is a client over Seams.Transport
// and one POST per call, with the request's context and body:
//
//	c := resty.New().SetTransport(s.Transport).SetRetryCount(3)
//	resp, err := c.R().SetContext(req.Context()).SetBody(body).Post(req.URL.String())
//
// # What it claims
//
// README.md:695-761: retries are off until SetRetryCount(n) (n retries,
// n+1 attempts); the wait starts at 100ms (SetRetryWaitTime) and grows to
// 2s (SetRetryMaxWaitTime), with jitter — half the capped ceiling plus up
// to as much again, raised to the first wait (retry.go:209-225); "by
// default, resty will retry requests that return a non-nil error", and
// no status; a retry condition "will override the default retry behavior"
// (README.md:744-746). No Retry-After, unless a SetRetryAfter callback
// parses it.
//
// # Gaps
//
// AddRetryAfterErrorCondition, "the basic condition of retrying after
// encountering an error from the HTTP response" (client.go:777-784), is a
// condition like any other: it replaces the default, so connection
// errors are not retried any more once it is added.
package restyv2
