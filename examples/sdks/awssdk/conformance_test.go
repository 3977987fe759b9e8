package awssdk_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The file:line citations are of github.com/aws/aws-sdk-go-v2 v1.48.0
// (aws/retry/…), its DynamoDB client v1.74.1 (service/dynamodb/…) and
// github.com/aws/smithy-go v1.28.9, the versions go.mod selects.

// retried are the statuses the standard retryer retries by status alone:
// 500, 502, 503, 504 (aws/retry/standard.go:64-69, 103-105), and a 429
// whose error is not one the service models (aws/retry/standard.go:106,
// retryable_error.go:192-209) — with no body, or one that is not JSON,
// it is not (smithy-go transport/http/protocol/awsjson/awsjson.go:198,
// 238-249). X-Amz-Retry-After is read on the error response of every
// retry (aws/retry/middleware.go:312-316, 518-527).
var retried = append([]int{429}, serverErrors...)

// serverErrors are the statuses of aws/retry/standard.go:64-69.
var serverErrors = []int{500, 502, 503, 504}

// notRetried are the statuses no retryable check matches: every other 4xx
// and 5xx, an empty body's error code being "UnknownError"
// (awsjson.go:198), in no list of aws/retry/standard.go:73-95. 400 is
// left to the Signals: its verdict is its body's error code.
func notRetried() []int {
	return append(conformance.Statuses(4, 400, 429), conformance.Statuses(5, 500, 502, 503, 504)...)
}

// The bodies DynamoDB sends, as the client's own response snapshots have
// them (service/dynamodb/response_snapshot/<code>.error.snap).
const (
	internalError        = `{"__type":"InternalServerError","message":"Internal server error"}`
	throughputExceeded   = `{"__type":"ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."}`
	throttling           = `{"__type":"ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`
	requestLimit         = `{"__type":"RequestLimitExceeded","message":"Throughput exceeds the current throughput limit for your account."}`
	transactionInProgess = `{"__type":"TransactionInProgressException","message":"The transaction with the given request token is already in progress."}`
	notFound             = `{"__type":"ResourceNotFoundException","message":"Requested resource not found"}`
	conditionFailed      = `{"__type":"ConditionalCheckFailedException","message":"The conditional request failed"}`
)

// signals are DynamoDB's 400s, whose error code decides: the throttle
// codes are retried (aws/retry/standard.go:80-95, 110-112), from the
// throttle ladder; a missing table or a failed condition is not, as a
// 400 is not without a code: those two decide nothing a bare 400 does not
// (StatusDecides), and are here to show the code reads the body without
// retrying them.
var signals = []conformance.Signal{
	{Name: "throughput", Status: 400, Body: throughputExceeded, Retry: true},
	{Name: "throttling", Status: 400, Body: throttling, Retry: true},
	{Name: "request-limit", Status: 400, Body: requestLimit, Retry: true},
	{Name: "transaction-in-progress", Status: 400, Body: transactionInProgess, Retry: true},
	{Name: "not-found", Status: 400, Body: notFound, Retry: false, StatusDecides: true},
	{Name: "condition-failed", Status: 400, Body: conditionFailed, Retry: false, StatusDecides: true},
}

// ladder is the backoff of the "retries 2026" path DynamoDB's client
// takes (aws/retry/standard.go:222-232 builds it; jitter_backoff.go:66-73
// sets retries2026): retry k waits b·min(x·2^(k-1), 20s)
// (jitter_backoff.go:107-131), b from crypto/rand in [0, 1)
// (jitter_backoff.go:41, internal/rand/rand.go:19-33): full jitter, the
// cap before it, the top never reached. MaxBackoff is 20s
// (aws/retry/standard.go:31, 318).
func ladder(x time.Duration, attempts int) retrytest.Policy {
	return retrytest.Policy{First: x, Cap: 20 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: attempts}
}

// DynamoDB's base delay x is 25ms (service/dynamodb/api_client.go:669-676);
// a throttle's is 1s whatever the base (jitter_backoff.go:113-116).
const (
	dynamoBase   = 25 * time.Millisecond
	throttleBase = time.Second
)

// errorCode is the error code the awsJson1.0 protocol reads off a
// response: X-Amzn-ErrorType, else the body's __type, else its code
// (smithy-go transport/http/protocol/internal/json/error.go:33-43), less
// a namespace (error.go:45-55); "UnknownError" without one
// (awsjson.go:198, 222-224); "" for a body that is not JSON, which is a
// DeserializationError and no API error at all (awsjson.go:210-219).
func errorCode(o retrytest.Outcome) string {
	code := o.Header.Get("X-Amzn-ErrorType")
	if code == "" && strings.TrimSpace(o.Body) != "" {
		var info struct {
			Type string `json:"__type"`
			Code any    `json:"code"`
		}
		if err := json.Unmarshal([]byte(o.Body), &info); err != nil {
			return ""
		}
		code = info.Type
		if c, ok := info.Code.(string); code == "" && ok {
			code = c
		}
	}
	if code == "" {
		return "UnknownError"
	}
	if i := strings.Index(code, ":"); i >= 0 {
		code = code[:i]
	}
	if i := strings.Index(code, "#"); i >= 0 {
		code = code[i+1:]
	}
	return code
}

// The error codes of aws/retry/standard.go:73-95.
var (
	retryableCodes = []string{"RequestTimeout", "RequestTimeoutException"}
	throttleCodes  = []string{"Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException", "TooManyRequestsException",
		"ProvisionedThroughputExceededException", "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
		"LimitExceededException", "RequestThrottled", "SlowDown", "PriorRequestNotComplete", "EC2ThrottledException"}
)

// classify says whether the standard retryer retries an attempt that
// ended with o, and whether it takes it for a throttle.
func classify(o retrytest.Outcome) (retry, throttle bool) {
	if o.Status == 0 {
		// Every error of the transport is a *RequestSendError (smithy-go
		// transport/http/client.go:101-102), a connection error
		// (client.go:137-139), retried (retryable_error.go:117-119) and
		// no throttle.
		return true, false
	}
	code := errorCode(o)
	// A modeled error is one of DynamoDB's types; any other code is a
	// *smithy.GenericAPIError (awsjson.go:238-249,
	// retryable_error.go:257-264).
	_, modeled := dynamodb.TypeRegistry.DeserializableError(code)
	tooMany := o.Status == 429 && !modeled
	// A throttle: a throttle code, or an unmodeled 429
	// (aws/retry/adaptive.go:20-25, throttle_error.go:47-72).
	throttle = slices.Contains(throttleCodes, code) || tooMany
	// Retried: the status, the unmodeled 429, a retryable or throttle
	// code (aws/retry/standard.go:99-113). A clock-skew code is retried
	// only when the response's Date is 4 minutes off
	// (aws/retry/middleware.go:335-377): the suite sends none.
	retry = slices.Contains(serverErrors, o.Status) || tooMany || slices.Contains(retryableCodes, code) || throttle
	return retry, throttle
}

// rule is the wait before retry k, for a client of the given base delay
// and attempts: the ladder of the cause, from 1s after a throttle and
// from the base after any other failure; and X-Amz-Retry-After, in milliseconds, held to
// [backoff, backoff+5s] around the drawn backoff
// (aws/retry/middleware.go:513-548).
func rule(base time.Duration, attempts int) conformance.Rule {
	return conformance.RuleFunc("a throttle backs off from 1s, other failures from "+base.String()+"; X-Amz-Retry-After is held to [backoff, backoff+5s]", func(r conformance.Retry) conformance.Want {
		retry, throttle := classify(r.Cause)
		if !retry {
			// An error no check retries ends the call
			// (aws/retry/middleware.go:270-274).
			return conformance.Want{Final: true}
		}
		b := ladder(base, attempts).Window(r.K)
		if throttle {
			b = ladder(throttleBase, attempts).Window(r.K)
		}
		if !r.HintOK {
			return conformance.Want{Window: b, Draw: conformance.DrawUniform}
		}
		// min(max(h, t), t+5s) for t drawn from b
		// (aws/retry/middleware.go:537-547): a wait anywhere between the
		// clamps of b's edges, whose top is reached only when the hint
		// is (t's top is open).
		lo := min(max(r.Hint, b.Min), b.Min+5*time.Second)
		hi := min(max(r.Hint, b.Max), b.Max+5*time.Second)
		return conformance.Want{Window: retrytest.Window{Min: lo, Max: hi, Open: hi != r.Hint}}
	})
}

// spec is what DynamoDB's client claims, for a client of the given
// attempts in all.
func spec(attempts int) conformance.Spec {
	return conformance.Spec{
		// The ladder after the suite's transient failure, a 503.
		Policy: ladder(dynamoBase, attempts),
		Rule:   rule(dynamoBase, attempts),
		// crypto/rand (internal/rand/rand.go:10-33), which no seam
		// reaches.
		OwnRandom: true,
		// The statuses retried, and those not, by their status alone
		// (retried, notRetried); DynamoDB's 400s are the Signals.
		Retryable: retried,
		Permanent: notRetried(),
		Signals:   signals,
		// X-Amz-Retry-After alone (middleware.go:524), on every error
		// response it retries (middleware.go:312-316, 519-522); no
		// ceiling of its own: the Rule holds it around the backoff.
		Hints: &conformance.Hints{Statuses: retried, Fields: []string{"X-Amz-Retry-After"}, Max: retryafter.Forever},
		// DynamoDB's 500 (response_snapshot/InternalServerError.error.snap);
		// the other statuses come with no body, an "UnknownError".
		Bodies: map[int]string{500: internalError},
		// The retry quota, one per retryer and so per client
		// (aws/retry/standard.go:152-166, 323-327): 500 tokens
		// (standard.go:36), a retry costs 14
		// (standard.go:60), 5 after a throttle (standard.go:55,
		// 289-293), a retry that succeeds gives them back, a first
		// attempt that succeeds gives 1 (standard.go:45, 259-285); a
		// call that finds it spent ends (middleware.go:294-304).
		SharedState: "a retry quota of 500 tokens shared by every call of the client, 14 a retry and 5 after a throttle (aws/retry/standard.go:36-60, 287-300)",
	}
}

// newClient returns the adapter: a DynamoDB client over the suite's
// transport, its endpoint any URL, with opts, and one GetItem per call,
// with the request's context; a success maps back to its response.
func newClient(opts ...func(*dynamodb.Options)) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		c := dynamodb.New(dynamodb.Options{
			Region:       "us-east-1",
			BaseEndpoint: aws.String("https://dynamodb.example.com"),
			Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
				return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}, nil
			}),
			HTTPClient: &http.Client{Transport: s.Transport},
		}, opts...)
		return func(req *http.Request) (*http.Response, error) {
			out, err := c.GetItem(req.Context(), &dynamodb.GetItemInput{
				TableName: aws.String("retrykit"),
				Key:       map[string]types.AttributeValue{"id": &types.AttributeValueMemberS{Value: "1"}},
			})
			if err != nil {
				return nil, err
			}
			raw, _ := awsmiddleware.GetRawResponse(out.ResultMetadata).(*smithyhttp.Response)
			if raw == nil {
				return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
			}
			return &http.Response{StatusCode: raw.StatusCode, Status: raw.Status, Header: raw.Header, Body: http.NoBody}, nil
		}
	}
}

// notChecked are the properties every configuration skips: the
// Retry-After properties (the client reads X-Amz-Retry-After alone,
// which HintFields checks), no idempotency key on a GetItem, no Budget,
// no per-attempt timeout.
var notChecked = []string{
	"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd",
	"IdempotencyKey", "BudgetHonoured", "AttemptTimeout",
}

// quotaSkips are the properties the retry quota skips: the calls'
// independence (Spec.SharedState).
var quotaSkips = []string{"FreshEachCall", "ConcurrentCalls"}

// bubbleSkips are what a bubble cannot see: the timers NoLeaks cannot
// list.
var bubbleSkips = []string{"NoLeaks/timers"}

// DynamoDB's client defaults: 4 attempts (api_client.go:669-674).
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestClient(t, spec(4), newClient(), conformance.RunInBubble())
	conftable.SDKs.Pin(t, r, nil, slices.Concat([]string{"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap"}, notChecked, quotaSkips, bubbleSkips))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/aws/aws-sdk-go-v2/service/dynamodb", Name: "aws-sdk-go-v2 dynamodb", Config: "`dynamodb.New` defaults",
		Claims: "4 attempts; full jitter (crypto/rand) under min(x·2^(k−1), 20s) for retry k, x 1s after a throttle (an unmodeled 429 or a throttle code), else 25ms; retries connection errors, 500, 502, 503, 504, throttle and timeout codes; `X-Amz-Retry-After` (ms) held to [backoff, backoff+5s]; a retry quota of 500 tokens per client",
	}, r)
}

// RetryMaxAttempts 12, whose 12 attempts reach the 20s cap at retry 11
// after a server error (25ms·2^10 > 20s): the same claims, the cap
// checked too.
func TestConformanceMaxAttempts(t *testing.T) {
	r := conformance.TestClient(t, spec(12), newClient(func(o *dynamodb.Options) { o.RetryMaxAttempts = 12 }), conformance.RunInBubble())
	conftable.SDKs.Pin(t, r, nil, slices.Concat([]string{"WaitsOnTheClock", "JitterFromSource"}, notChecked, quotaSkips, bubbleSkips))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/aws/aws-sdk-go-v2/service/dynamodb", Name: "aws-sdk-go-v2 dynamodb", Config: "`RetryMaxAttempts: 12`",
		Claims: "as `dynamodb.New` defaults, 12 attempts: the 20s cap reached at retry 11",
	}, r)
}

// A retryer of the user's own, as aws/retry/doc.go:40-50 shows, with the
// quota off, as standard.go:165 says: ratelimit.None
// (aws/ratelimit/none.go:5-12). DynamoDB's client then keeps none of its
// settings (service/dynamodb/api_client.go:648-651): the base delay is
// NewStandard's 50ms (aws/retry/standard.go:224-227), and the attempts 3
// (standard.go:28, 317). With no quota the calls share nothing that
// changes a wait or a verdict of the suite's: the clock skew the client
// keeps (api_client.go:198-199, aws/retry/middleware.go:99-102, 169-175)
// moves the signing time, and decides a clock-skew code only beside a
// Date header 4 minutes off (middleware.go:359-377), which the suite
// never sends.
func TestConformanceOwnRetryer(t *testing.T) {
	s := spec(3)
	s.Policy, s.Rule = ladder(50*time.Millisecond, 3), rule(50*time.Millisecond, 3)
	s.SharedState = ""
	r := conformance.TestClient(t, s, newClient(func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) { so.RateLimiter = ratelimit.None })
	}), conformance.RunInBubble())
	conftable.SDKs.Pin(t, r, nil, slices.Concat([]string{"WaitsOnTheClock", "JitterFromSource", "CapReached", "NoSpikeAtCap"}, notChecked, bubbleSkips))
	conftable.SDKs.Check(t, conftable.Row{
		Module: "github.com/aws/aws-sdk-go-v2/service/dynamodb", Name: "aws-sdk-go-v2 dynamodb", Config: "`Retryer: retry.NewStandard(…)`, `RateLimiter: ratelimit.None`",
		Claims: "as `dynamodb.New` defaults, but NewStandard's: 3 attempts, 50ms after a failure that is no throttle; no quota, so each call retries as it would alone",
	}, r)
}
