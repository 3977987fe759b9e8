package grpcconformance

import (
	"context"

	"google.golang.org/grpc"

	"github.com/retrykit/retrykit/seqrand"
)

// Method is the method every call of the suite must make: the client's
// Call sends one request to it, as
//
//	testgrpc.NewTestServiceClient(cc).EmptyCall(ctx, &testgrpc.Empty{})
//
// does (testgrpc is google.golang.org/grpc/interop/grpc_testing).
const Method = "/grpc.testing.TestService/EmptyCall"

// Seams are what the suite hands the client under test for each client it
// makes: where to dial the scripted server, and the random source its
// jitter should draw from.
type Seams struct {
	// Target and DialOptions reach the suite's scripted server:
	// grpc.NewClient(s.Target, append(s.DialOptions, own...)...). A
	// connection made so must be closed by the Call's maker; Dial's are
	// closed by the suite.
	Target      string
	DialOptions []grpc.DialOption
	// Dial makes a connection to the scripted server with DialOptions and
	// then opts (a service config, interceptors), as grpc.NewClient does;
	// the suite closes it after the call.
	Dial func(opts ...grpc.DialOption) (*grpc.ClientConn, error)
	// Rand is the random source every jitter should draw from
	// (rand.New(s.Rand), or s.Rand.Float64); a client that cannot take it
	// declares Spec.OwnRandom.
	Rand *seqrand.Source
}

// Call makes one call to [Method] through the client under test, with
// ctx, and returns its error: nil for a success, else an error whose
// status (status.Code) is the call's. The suite makes a client — one
// ClientConn, one throttle — per newCall, and may call it several times.
type Call func(ctx context.Context) error
