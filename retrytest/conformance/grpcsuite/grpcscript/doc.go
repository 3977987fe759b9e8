// Package grpcscript plays the server's side of a retrying gRPC client's
// test: a scripted gRPC server, in memory, that answers each attempt at a
// method with the next reply of that method's script — "Unavailable
// twice, then OK", a status with details, a pushback in the trailer
// grpc-retry-pushback-ms, a reply after a delay, a hang until the
// attempt's deadline — and records every attempt: when it arrived, the
// method, its metadata (grpc-previous-rpc-attempts, x-retry-attempt) and
// the time its deadline left it.
//
//	grpcscript.Test(t, func(t *testing.T) { // a synctest bubble, guarded
//		srv := grpcscript.NewServer(t, grpcscript.Method("/grpc.testing.TestService/EmptyCall",
//			grpcscript.Status(codes.Unavailable, "overloaded").Pushback(2*time.Second),
//			grpcscript.OK(),
//		))
//		cc, _ := srv.Dial(grpc.WithDefaultServiceConfig(retryPolicy))
//		_, err := testgrpc.NewTestServiceClient(cc).EmptyCall(t.Context(), &testgrpc.Empty{})
//		retrytest.AssertAttemptsAt(t, srv, 0, 2*time.Second) // the retry waited the pushback
//		srv.AssertDone(t)
//	})
//
// The [Server] is a schedule the checks of package retrytest and the
// matchers read, as httpscript's Transport is: when each attempt began,
// and how it ended. Its listener is a net.Pipe per connection, with no
// socket, so the server works inside a testing/synctest bubble — where
// grpc-go's retries and go-grpc-middleware's, which call package time
// themselves, take no real time — as well as on a fake clock
// ([Server.WithClock]), for code that takes a clock. Make the server
// inside the bubble, and dial it there.
//
// An attempt its script has no reply for fails the test, naming the
// method and the attempt; a script for a method the protobuf registry does
// not know is an error at NewServer; and a server that no attempt reaches
// within 5s of real time fails the test, naming the target to dial
// ([Test] does it for the servers of a bubble). Closing the server, which
// the test's cleanup does, leaves no goroutine behind.
//
// Fixtures (NewServer) take a fakeclock.FixtureT, which registers
// cleanups; the Assert methods take a retrytest.TestingT, as every Assert
// of retrykit does.
package grpcscript
