// Package grpcmiddleware is the recipe for testing the retry interceptor
// of [github.com/grpc-ecosystem/go-grpc-middleware/v2] (v2.3.4), package
// interceptors/retry, with retrykit, inside a testing/synctest bubble,
// against the scripted server of
// [github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript].
//
// # The seam
//
// The interceptor takes no clock: it waits on time.NewTimer (retry.go:263)
// and cuts each attempt with context.WithTimeout (retry.go:293). Its
// BackoffFunc is the seam for the waits — BackoffLinear and
// BackoffExponential draw nothing — but the default's jitter comes from
// the math/rand global (backoff.go:9, 24), which no seam reaches. So the
// test runs the real interceptor on a grpc-go client in a grpcscript.Test
// bubble, where the waits take no real time, and reads the attempts off the
// scripted server:
//
//	grpcscript.Test(t, func(t *testing.T) {
//		srv := grpcscript.NewServer(t, grpcscript.Method(method, unavailable.Times(2), grpcscript.OK()))
//		cc, _ := srv.Dial(grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithMax(3))))
//		// ... call ...
//		retrytest.AssertDelaysWithin(t, srv, window, window)
//	})
//
// # The formula the windows follow
//
// By default the wait before every retry is BackoffLinearWithJitter(50ms,
// 0.10) (options.go:26): 50ms·(1 + 0.1·(2r−1)) for r in [0, 1)
// (backoff.go:23-26), from [45ms, 55ms):
//
//	retrytest.Policy{First: 50 * time.Millisecond, Growth: 1, Jitter: retrytest.FactorJitter,
//		JitterFactor: 0.1, Attempts: max, Tolerance: time.Nanosecond}.Windows()
//
// BackoffExponential(d) waits d·2^(k−1) before retry k (backoff.go:28-38,
// 51-55): d, 2d, 4d, exactly.
//
// # What the tests pin
//
//   - no retry at all by default: max is 0 (options.go:23), and the
//     interceptor then calls through (retry.go:35-37);
//   - WithMax(n), "the maximum number of retries" (options.go:55), is the
//     number of attempts (retry.go:39): WithMax(1) never retries;
//   - ResourceExhausted and Unavailable are retried by default
//     (options.go:20); WithCodes replaces them;
//   - x-retry-attempt numbers the attempts after the first (retry.go:295-297);
//   - grpc-retry-pushback-ms is never read: the package has no mention of it;
//   - WithPerRetryTimeout cuts each attempt at its timeout (retry.go:293)
//     and retries the DeadlineExceeded whatever WithCodes says
//     (retry.go:55-66), until the caller's deadline, which wins
//     (retry.go:56-59);
//   - the caller's deadline cuts a wait (retry.go:263-269);
//   - stacked on a service config's retryPolicy, the two multiply the
//     attempts.
package grpcmiddleware
