package grpcconformance_test

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// serviceConfig retries UNAVAILABLE: 5 attempts, 1s doubling to 5s.
const serviceConfig = `{"methodConfig": [{"name": [{"service": "grpc.testing.TestService"}],
  "retryPolicy": {"maxAttempts": 5, "initialBackoff": "1s", "maxBackoff": "5s",
    "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

func TestRetryPolicy(t *testing.T) {
	spec := grpcconformance.Spec{
		Policy: retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second,
			Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: 5},
		OwnRandom:   true, // grpc-go draws its jitter from math/rand/v2
		AttemptsCap: 5,    // grpc-go's cap on maxAttempts
		Pushback:    &grpcconformance.Pushback{},
		AttemptKey:  "grpc-previous-rpc-attempts",
	}
	grpcconformance.TestClient(t, spec, func(s grpcconformance.Seams) grpcconformance.Call {
		cc, err := s.Dial(grpc.WithDefaultServiceConfig(serviceConfig))
		if err != nil {
			return nil
		}
		client := testgrpc.NewTestServiceClient(cc)
		return func(ctx context.Context) error {
			_, err := client.EmptyCall(ctx, &testgrpc.Empty{})
			return err
		}
	})
}
