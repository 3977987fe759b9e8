package grpcmiddleware_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// newCall is the adapter: a ClientConn whose calls go through the retry
// interceptor made with opts, and an EmptyCall on it.
func newCall(opts ...retry.CallOption) func(grpcconformance.Seams) grpcconformance.Call {
	return func(s grpcconformance.Seams) grpcconformance.Call {
		cc, err := s.Dial(grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(opts...)))
		if err != nil {
			return nil
		}
		c := testgrpc.NewTestServiceClient(cc)
		return func(ctx context.Context) error {
			_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
			return err
		}
	}
}

// The defaults retry nothing (options.go:23, retry.go:35-37): every code
// is returned at once.
func TestConformDefaults(t *testing.T) {
	spec := grpcconformance.Spec{Policy: retrytest.Policy{Attempts: 1}, Retryable: []codes.Code{}}
	r := grpcconformance.TestClient(t, spec, newCall())
	conftable.Libraries.Pin(t, r, nil, []string{"WaitsInWindows", "RetryableCodes", "PushbackWaited", "PushbackResetsBackoff", "PushbackInvalid",
		"RetryThrottling", "AttemptTimeout", "RetryMetadata", "DeadlineSpansAttempts", "DeadlineCutsWait", "CancelDuringWait", "NoLeaks/canceled"})
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: name, Config: "`UnaryClientInterceptor()` defaults",
		Claims: "\"by default the interceptors are disabled\" (retry/doc.go:12): every code returned at once"}, r)
}

const module, name = "github.com/grpc-ecosystem/go-grpc-middleware/v2", "go-grpc-middleware v2"

// noPushback are the properties a client that reads no pushback skips.
var noPushback = []string{"PushbackWaited", "PushbackResetsBackoff", "PushbackInvalid", "RetryThrottling"}

// WithMax(4) is "the maximum number of retries" (options.go:55): 5
// attempts by the docs, and 50ms ±10% between them (backoff.go:23-26),
// drawn from the math/rand global (backoff.go:9); x-retry-attempt numbers
// the retries (retry.go:295-297); no pushback is read.
func TestConformMax(t *testing.T) {
	spec := grpcconformance.Spec{
		Policy:     retrytest.Policy{First: 50 * time.Millisecond, Growth: 1, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, Attempts: 5, Tolerance: time.Nanosecond},
		OwnRandom:  true,
		AttemptKey: retry.AttemptMetadataKey,
	}
	r := grpcconformance.TestClient(t, spec, newCall(retry.WithMax(4), retry.WithCodes(codes.Unavailable)),
		grpcconformance.Waive("AttemptCount", "`WithMax(n)` makes n attempts, n−1 retries (retry.go:39), where its doc says retries (options.go:55)"))
	conftable.Libraries.Pin(t, r, []string{"AttemptCount"}, append(slices.Clone(noPushback), "AttemptTimeout"))
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: name, Config: "`WithMax(4)`, `WithCodes(codes.Unavailable)`",
		Claims: "\"the maximum number of retries\" (options.go:55): 5 attempts; 50ms ±10% between them (math/rand); `x-retry-attempt` on each retry; no pushback read"}, r)
}

// WithPerRetryTimeout(1s) cuts each attempt at 1s and retries it
// (retry.go:293), after BackoffLinear(100ms). With a per-retry timeout,
// a DeadlineExceeded or Canceled status is taken for the attempt's own
// timeout and retried, even one the server sent (retry.go:55-65, 283-286).
func TestConformPerRetryTimeout(t *testing.T) {
	why := "with WithPerRetryTimeout a DeadlineExceeded or Canceled status is retried as the attempt's own timeout, even one the server sent (retry.go:55-65, 283-286)"
	spec := grpcconformance.Spec{
		Policy:         retrytest.Policy{First: 100 * time.Millisecond, Growth: 1, Attempts: 3},
		AttemptTimeout: time.Second,
		AttemptKey:     retry.AttemptMetadataKey,
	}
	r := grpcconformance.TestClient(t, spec, newCall(retry.WithMax(3), retry.WithCodes(codes.Unavailable),
		retry.WithPerRetryTimeout(time.Second), retry.WithBackoff(retry.BackoffLinear(100*time.Millisecond))),
		grpcconformance.Waive("NonRetryableCodes/canceled", why), grpcconformance.Waive("NonRetryableCodes/deadline-exceeded", why))
	conftable.Libraries.Pin(t, r, []string{"NonRetryableCodes/canceled", "NonRetryableCodes/deadline-exceeded"}, noPushback)
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: name,
		Config: "`WithMax(3)`, `WithCodes(codes.Unavailable)`, `WithPerRetryTimeout(1s)`, `WithBackoff(BackoffLinear(100ms))`",
		Claims: "each attempt cut at 1s and retried (retry.go:293), 100ms between attempts, 3 attempts"}, r)
}
