// Package grpcgo is the recipe for testing the retries of
// [google.golang.org/grpc] (v1.85.0) — the retryPolicy of a service config
// (gRFC A6) — with retrykit, inside a testing/synctest bubble, against the
// scripted server of
// [github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript].
//
// # The seam
//
// grpc-go takes no clock: it waits between attempts on time.NewTimer
// (stream.go:894) and draws its jitter from the math/rand/v2 global
// (stream.go:887). So the test runs the real client in a bubble, where the
// waits take no real time, against a grpcscript.Server, which records when
// each attempt arrived on the bubble's clock and is the schedule the checks
// read. grpcscript.Test is the bubble, guarded: a client that never
// reaches the server fails the test in 5s of real time instead of hanging.
//
//	grpcscript.Test(t, func(t *testing.T) {
//		srv := grpcscript.NewServer(t, grpcscript.Method("/grpc.testing.TestService/EmptyCall",
//			grpcscript.Status(codes.Unavailable, "").Pushback(2500*time.Millisecond), grpcscript.OK()))
//		cc, _ := srv.Dial(grpc.WithDefaultServiceConfig(config))
//		testgrpc.NewTestServiceClient(cc).EmptyCall(t.Context(), &testgrpc.Empty{})
//		retrytest.AssertAttemptsAt(t, srv, 0, 2500*time.Millisecond)
//	})
//
// # The formula the windows follow
//
// The wait before retry k (from 0 since the last pushback) is
// min(initialBackoff·backoffMultiplier^k, maxBackoff) times a factor drawn
// from [0.8, 1.2) (stream.go:884-888): the cap comes before the jitter, so
// a wait reaches 1.2·maxBackoff. That is
//
//	retrytest.Policy{First: initial, Growth: multiplier, Cap: maxBackoff,
//		Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: maxAttempts,
//		Tolerance: time.Nanosecond}.Windows()
//
// with the top closed, since the float64 product can round up to it. The
// jitter comes from the math/rand/v2 global, which no seam reaches: the
// tests hold a sample of calls to the windows, every sixteenth of
// [0.8, 1.2] reached, and use pushback where a wait must be exact.
//
// # What the tests pin
//
//   - maxAttempts is capped at 5 (dialoptions.go:43, service_config.go:288-290)
//     unless grpc.WithMaxCallAttempts raises the cap;
//   - a pushback in a trailers-only response is waited exactly, uncapped,
//     and restarts the ladder at initialBackoff (stream.go:880-882); a
//     negative, malformed or repeated one ends the retries (stream.go:843-855);
//     a failure that sent headers first is never retried, with or without a
//     pushback (stream.go:836-838);
//   - retryThrottling: a retryable failure takes a token, the last attempt's
//     too (stream.go:872-877), a malformed pushback takes one whatever the
//     code (stream.go:847), a success gives back tokenRatio, and retries
//     stop while the tokens left are at most half of maxTokens
//     (clientconn.go:1146-1150, 1751-1774);
//   - one deadline spans every attempt, the context's or the method
//     config's timeout (stream.go:401-402), each attempt sends what is left
//     of it, and it cuts the wait (stream.go:899-901);
//   - grpc-previous-rpc-attempts counts the attempts before
//     (stream.go:631, internal/transport/http2_client.go:613-615);
//   - the error after the last attempt wraps the status: "max retries
//     exhausted: failed after 5 attempts: …" (stream.go:876).
package grpcgo
