// Package awssdk runs the built-in retries of the AWS SDK for Go v2 — the
// standard retryer of [github.com/aws/aws-sdk-go-v2] (v1.48.0) as the
// DynamoDB client [github.com/aws/aws-sdk-go-v2/service/dynamodb]
// (v1.74.1) configures it — through retrykit's conformance suite,
// against what the retryer's docs and source claim. It has no gap to
// waive: every case the suite sends passes, or is skipped, saying why.
//
// # The seam
//
// The client takes an HTTP client (Options.HTTPClient), so the suite's
// scripted transport answers its requests, at any BaseEndpoint; it waits
// with time.NewTimer and draws its jitter from crypto/rand, so the suite
// runs it in a testing/synctest bubble (conformance.RunInBubble). The
// adapter is a client over Seams.Transport and one GetItem per call, with
// the request's context:
//
//	c := dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("https://dynamodb.example.com"),
//		Credentials: creds, HTTPClient: &http.Client{Transport: s.Transport}})
//	out, err := c.GetItem(req.Context(), &dynamodb.GetItemInput{TableName: aws.String("retrykit"), Key: key})
//
// # What it claims
//
// aws/retry/doc.go:9-33 and the source: 4 attempts for DynamoDB
// (service/dynamodb/api_client.go:669-676; 3 for other clients,
// aws/retry/standard.go:28); retry k waits b·min(x·2^(k−1), 20s), b drawn
// from crypto/rand in [0, 1) (aws/retry/jitter_backoff.go:103-131), x 1s
// after a throttle and DynamoDB's 25ms after any other failure
// (jitter_backoff.go:113-116, api_client.go:675); connection errors, 500,
// 502, 503, 504, a 429 whose error the service does not model, and the
// timeout and throttle error codes retried (aws/retry/standard.go:62-113)
// — DynamoDB throttles with a 400 and a code in its body, so those are
// the Signals; an X-Amz-Retry-After header, in milliseconds, held to
// [backoff, backoff+5s] around the drawn backoff
// (aws/retry/middleware.go:513-548); and a retry quota, a token bucket of
// 500 shared by every call of the client, which a retry draws on
// (aws/retry/standard.go:152-166): so FreshEachCall and ConcurrentCalls
// are skipped, naming it (Spec.SharedState). A Rule states the two
// ladders and the hint's clamp, from the cause the suite reports.
//
// # Gaps
//
// None: the client does what its source and docs say of every case the
// suite sends. What the suite does not send is not checked: the relative
// clamp is seen at its top only (a 7s hint after a throttle, held to
// [5s, 6s)); X-Amz-Retry-After values that are malformed, negative or
// beyond a Duration (ignored, aws/retry/middleware.go:529-536, or
// wrapped, middleware.go:537, then clamped around the backoff all the
// same); and the quota, which no single call of the suite spends.
//
// A user who follows aws/retry/doc.go:40-50 and hands DynamoDB's client a
// retry.NewStandard of their own loses DynamoDB's settings: the base
// delay goes back to 50ms (aws/retry/standard.go:224-227) and the
// attempts to 3, since resolveRetryer sets them only when Options.Retryer
// is nil (service/dynamodb/api_client.go:648-651, 669-676).
package awssdk
