package grpcconformance_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// A Spec that contradicts itself is an error, naming the fields and what
// the suite expected, before anything runs.
func ExampleCheckClient_badSpec() {
	spec := grpcconformance.Spec{
		Policy:       retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second, Attempts: 6},
		AttemptsCap:  5,
		NonRetryable: []codes.Code{codes.Unavailable, codes.Internal},
	}
	_, err := grpcconformance.CheckClient(nil, spec, func(grpcconformance.Seams) grpcconformance.Call { return nil })
	fmt.Println(err)
	// Output:
	// grpcconformance: the Spec contradicts itself: Policy.Attempts 6 is above AttemptsCap 5: the client makes at most 5; want Policy.Attempts 5, or the cap raised (grpc.WithMaxCallAttempts) and declared; code Unavailable is both Retryable and NonRetryable
}

// grpc-go's own retry policy, from the service config, against what it
// ships: five attempts, 1s doubling to 5s times [0.8, 1.2) from a global
// source, UNAVAILABLE retried, pushback honoured.
func ExampleTestClient() {
	const serviceConfig = `{"methodConfig": [{"name": [{"service": "grpc.testing.TestService"}],
	  "retryPolicy": {"maxAttempts": 5, "initialBackoff": "1s", "maxBackoff": "5s", "backoffMultiplier": 2,
	    "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
	spec := grpcconformance.Spec{
		Policy: retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second,
			Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: 5},
		OwnRandom:   true,
		AttemptsCap: 5,
		Pushback:    &grpcconformance.Pushback{},
		AttemptKey:  "grpc-previous-rpc-attempts",
	}
	var t *testing.T // the test's
	grpcconformance.TestClient(t, spec, func(s grpcconformance.Seams) grpcconformance.Call {
		cc, err := s.Dial(grpc.WithDefaultServiceConfig(serviceConfig))
		if err != nil {
			return nil
		}
		c := testgrpc.NewTestServiceClient(cc)
		return func(ctx context.Context) error {
			_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
			return err
		}
	})
}
