package grpcscript_test

import (
	"context"
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
)

// "Unavailable twice, then OK", for a client that retries on a clock it
// is given, timed on that clock: here the loop and its waits are written
// out, where a test would run the client's own code.
func ExampleNewServer() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		srv := grpcscript.NewServer(t, grpcscript.Method("/grpc.testing.TestService/EmptyCall",
			grpcscript.Status(codes.Unavailable, "overloaded").Times(2),
			grpcscript.OK(),
		)).WithClock(clk)
		cc, err := srv.Dial()
		if err != nil {
			fmt.Println(err)
			return
		}
		c := testgrpc.NewTestServiceClient(cc)
		for attempt := 1; ; attempt++ {
			_, err := c.EmptyCall(context.Background(), &testgrpc.Empty{})
			fmt.Println("attempt", attempt, status.Code(err))
			if err == nil {
				break
			}
			clk.Advance(time.Duration(attempt) * time.Second) // the code under test would wait here
		}
		retrytest.AssertAttemptsAt(t, srv, 0, time.Second, 3*time.Second)
		fmt.Println(srv)
	})
	// Output:
	// attempt 1 Unavailable
	// attempt 2 Unavailable
	// attempt 3 OK
	// grpcscript.Server: 3 attempts
	//     attempt  at   method                               retry metadata  deadline  result
	//     1        +0s  /grpc.testing.TestService/EmptyCall  -               -         Unavailable "overloaded"
	//     2        +1s  /grpc.testing.TestService/EmptyCall  -               -         Unavailable "overloaded"
	//     3        +3s  /grpc.testing.TestService/EmptyCall  -               -         OK
	// script of /grpc.testing.TestService/EmptyCall:
	//     step  reply                     times    served
	//     1     Unavailable "overloaded"  2 times  2
	//     2     OK                        once     1
	// PASS
}

// A client that retries more often than the script allows gets
// Unimplemented at once, and the test fails naming the method and the
// attempt.
func ExampleNewServer_exhausted() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		srv := grpcscript.NewServer(t, grpcscript.Method("/grpc.testing.TestService/EmptyCall",
			grpcscript.Status(codes.Unavailable, "").Times(2),
		)).WithClock(clk)
		cc, err := srv.Dial()
		if err != nil {
			fmt.Println(err)
			return
		}
		for range 3 {
			_, err = testgrpc.NewTestServiceClient(cc).EmptyCall(context.Background(), &testgrpc.Empty{})
		}
		fmt.Println("client got:", status.Code(err))
	})
	// Output:
	// grpcscript: unexpected attempt 3 at +0s: /grpc.testing.TestService/EmptyCall: no reply left in its script
	// script of /grpc.testing.TestService/EmptyCall:
	//     step  reply        times    served
	//     1     Unavailable  2 times  2
	// attempts (3):
	//     attempt  at   method                               retry metadata  deadline  result
	//     1        +0s  /grpc.testing.TestService/EmptyCall  -               -         Unavailable
	//     2        +0s  /grpc.testing.TestService/EmptyCall  -               -         Unavailable
	//     3        +0s  /grpc.testing.TestService/EmptyCall  -               -         unexpected attempt
	// client got: Unimplemented
	// FAIL
}
