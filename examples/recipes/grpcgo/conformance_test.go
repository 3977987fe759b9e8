package grpcgo_test

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// spec is what config(5, …) declares, as grpc-go honours it: 5 attempts,
// its cap; the ladder of policy, its factor drawn from the math/rand/v2
// global; UNAVAILABLE retried; a pushback waited exactly, and an invalid
// one ending the retries (gRFC A6); grpc-previous-rpc-attempts on each
// retry.
func spec() grpcconformance.Spec {
	return grpcconformance.Spec{
		Policy:      policy,
		OwnRandom:   true,
		AttemptsCap: 5,
		Pushback:    &grpcconformance.Pushback{Invalid: grpcconformance.StopsRetrying},
		AttemptKey:  "grpc-previous-rpc-attempts",
	}
}

// newCall is the adapter: a ClientConn with the service config cfg, and
// an EmptyCall on it.
func newCall(cfg string) func(grpcconformance.Seams) grpcconformance.Call {
	return func(s grpcconformance.Seams) grpcconformance.Call {
		cc, err := s.Dial(grpc.WithDefaultServiceConfig(cfg))
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

const module = "google.golang.org/grpc"

// policyClaims is what grpc-go claims of config(5, "", "").
const policyClaims = "5 attempts; min(1s·2^k, 5s) times [0.8, 1.2) (math/rand/v2); UNAVAILABLE retried; a pushback waited exactly, the ladder restarted after it, an invalid one ending the retries; one deadline across the attempts; `grpc-previous-rpc-attempts` on each retry"

func TestConformRetryPolicy(t *testing.T) {
	r := grpcconformance.TestClient(t, spec(), newCall(config(5, "", "")))
	conftable.Libraries.Pin(t, r, nil, []string{"RetryThrottling", "AttemptTimeout"})
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: "grpc-go",
		Config: "`retryPolicy` {maxAttempts 5, initialBackoff 1s, backoffMultiplier 2, maxBackoff 5s, UNAVAILABLE}", Claims: policyClaims}, r)
}

// maxAttempts 8 is cut to 5 (service_config.go:288-290) unless
// grpc.WithMaxCallAttempts raises the cap (dialoptions.go:43): raised to
// 7, the call makes 7 attempts.
func TestConformMaxCallAttempts(t *testing.T) {
	s := spec()
	s.Policy.Attempts, s.AttemptsCap = 7, 7
	r := grpcconformance.TestClient(t, s, func(seams grpcconformance.Seams) grpcconformance.Call {
		dial := seams.Dial
		seams.Dial = func(opts ...grpc.DialOption) (*grpc.ClientConn, error) {
			return dial(append(opts, grpc.WithMaxCallAttempts(7))...)
		}
		return newCall(config(8, "", ""))(seams)
	})
	conftable.Libraries.Pin(t, r, nil, []string{"RetryThrottling", "AttemptTimeout"})
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: "grpc-go",
		Config: "the same with maxAttempts 8 and `grpc.WithMaxCallAttempts(7)`", Claims: "7 attempts: maxAttempts is cut to the cap, 5 unless `WithMaxCallAttempts` raises it; the rest as above"}, r)
}

func TestConformThrottle(t *testing.T) {
	s := spec()
	s.Throttle = &grpcconformance.Throttle{MaxTokens: 10, TokenRatio: 0.1}
	r := grpcconformance.TestClient(t, s, newCall(config(5, "", `, "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}`)))
	conftable.Libraries.Pin(t, r, nil, []string{"AttemptTimeout"})
	conftable.Libraries.Check(t, conftable.Row{Module: module, Name: "grpc-go",
		Config: "the same with `retryThrottling` {maxTokens 10, tokenRatio 0.1}", Claims: "a retryable failure takes a token, the last attempt's too; a success gives back 0.1; no retry while 5 or fewer are left, one bucket per ClientConn"}, r)
}
