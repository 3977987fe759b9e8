package grpcmiddleware_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
)

const emptyCall = "/grpc.testing.TestService/EmptyCall"

var unavailable = grpcscript.Status(codes.Unavailable, "overloaded")

// dial is the test service's client over a connection to srv whose calls
// go through the retry interceptor made with opts.
func dial(t *testing.T, srv *grpcscript.Server, opts []retry.CallOption, dialOpts ...grpc.DialOption) testgrpc.TestServiceClient {
	t.Helper()
	cc, err := srv.Dial(append([]grpc.DialOption{grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(opts...))}, dialOpts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return testgrpc.NewTestServiceClient(cc)
}

// call makes one EmptyCall and returns its error and how long it took on
// the bubble's clock.
func call(ctx context.Context, c testgrpc.TestServiceClient) (time.Duration, error) {
	start := time.Now()
	_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
	return time.Since(start), err
}

// The defaults retry nothing: max is 0 (options.go:23) and the
// interceptor calls straight through (retry.go:35-37).
func TestRecipeDefaults(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable, grpcscript.OK()))
		_, err := call(t.Context(), dial(t, srv, nil))
		if status.Code(err) != codes.Unavailable {
			t.Errorf("EmptyCall = %v, want Unavailable, not retried", err)
		}
		retrytest.AssertAttempts(t, srv, 1)
	})
}

// policy is WithMax(4) with the default backoff, 50ms ±10%
// (options.go:26, backoff.go:23-26).
var policy = retrytest.Policy{First: 50 * time.Millisecond, Growth: 1, Jitter: retrytest.FactorJitter,
	JitterFactor: 0.1, Attempts: 4, Tolerance: time.Nanosecond}

// WithMax(4) and WithCodes(Unavailable), over 100 calls that fail every
// attempt: each makes 4 attempts, not 4 retries (retry.go:39), each wait in
// [45ms, 55ms], and the factors drawn cover every sixteenth of
// [0.9, 1.1]: a window declared a sixteenth wider at either edge fails.
// The jitter is the math/rand global's (backoff.go:9), so a sample stands
// in for the two edges of a seam. x-retry-attempt numbers the retries
// (retry.go:295-297).
func TestRecipeWindows(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Always()))
		c := dial(t, srv, []retry.CallOption{retry.WithMax(4), retry.WithCodes(codes.Unavailable)})
		const calls = 100
		var sixteenths [16]int
		for range calls {
			before := len(srv.Attempts())
			if _, err := call(t.Context(), c); status.Code(err) != codes.Unavailable {
				t.Fatalf("EmptyCall = %v, want Unavailable", err)
			}
			attempts := srv.Attempts()[before:]
			var waits []time.Duration
			for i, a := range attempts {
				if got, want := strings.Join(a.Metadata.Get(retry.AttemptMetadataKey), ","), []string{"", "1", "2", "3"}[min(i, 3)]; got != want {
					t.Fatalf("attempt %d: x-retry-attempt %q, want %q", i+1, got, want)
				}
				if i > 0 {
					waits = append(waits, a.At.Sub(attempts[i-1].At))
				}
			}
			if !retrytest.AssertDelaysWithin(t, retrytest.Waits(waits...), policy.Windows()...) {
				return
			}
			for _, w := range waits {
				f := float64(w)/float64(policy.First) - (1 - policy.JitterFactor)
				sixteenths[max(0, min(int(f/(policy.JitterFactor/8)), 15))]++
			}
		}
		for i, n := range sixteenths {
			if n == 0 {
				lo := 1 - policy.JitterFactor + policy.JitterFactor/8*float64(i)
				t.Errorf("no factor in [%.4f, %.4f) of %d: the jitter is narrower than declared, [%.3g, %.3g]: %v",
					lo, lo+policy.JitterFactor/8, 3*calls, 1-policy.JitterFactor, 1+policy.JitterFactor, sixteenths)
			}
		}
	})
}

// WithMax counts attempts: WithMax(1), one "retry" by the option's doc
// (options.go:55), makes a single attempt; WithMax(2) retries once.
func TestRecipeMaxCountsAttempts(t *testing.T) {
	for _, tc := range []struct{ max, want int }{{1, 1}, {2, 2}, {5, 5}} {
		t.Run(fmt.Sprintf("WithMax(%d)", tc.max), func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Always()))
				call(t.Context(), dial(t, srv, []retry.CallOption{retry.WithMax(uint(tc.max))}))
				retrytest.AssertAttempts(t, srv, tc.want)
			})
		})
	}
}

// BackoffExponential(100ms) waits 100ms, 200ms, 400ms exactly: d·2^(k−1)
// before retry k (backoff.go:28-38, 51-55).
func TestRecipeExponential(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Times(3), grpcscript.OK()))
		c := dial(t, srv, []retry.CallOption{retry.WithMax(4), retry.WithBackoff(retry.BackoffExponential(100 * time.Millisecond))})
		if _, err := call(t.Context(), c); err != nil {
			t.Fatalf("EmptyCall = %v, want success on the fourth attempt", err)
		}
		retrytest.AssertDelays(t, srv, 100*time.Millisecond, 200*time.Millisecond, 400*time.Millisecond)
		srv.AssertDone(t)
	})
}

// The codes retried: ResourceExhausted and Unavailable by default
// (options.go:20); WithCodes replaces the list; any other code ends the
// call.
func TestRecipeCodes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []retry.CallOption
		reply grpcscript.Reply
		want  int
	}{
		{"default codes, ResourceExhausted", nil, grpcscript.Status(codes.ResourceExhausted, "quota"), 3},
		{"default codes, Unavailable", nil, unavailable, 3},
		{"default codes, Internal", nil, grpcscript.Status(codes.Internal, "bug"), 1},
		{"WithCodes(Unavailable), ResourceExhausted", []retry.CallOption{retry.WithCodes(codes.Unavailable)}, grpcscript.Status(codes.ResourceExhausted, "quota"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, tc.reply.Always()))
				call(t.Context(), dial(t, srv, append([]retry.CallOption{retry.WithMax(3)}, tc.opts...)))
				retrytest.AssertAttempts(t, srv, tc.want)
			})
		})
	}
}

// A pushback is never read: the package has no mention of
// grpc-retry-pushback-ms, so a server asking for 2.5s gets the default
// 50ms ±10%.
func TestRecipePushbackIgnored(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(2500*time.Millisecond), grpcscript.OK()))
		call(t.Context(), dial(t, srv, []retry.CallOption{retry.WithMax(2)}))
		retrytest.AssertDelaysWithin(t, srv, policy.Window(1))
	})
}

// WithPerRetryTimeout(1s) gives each attempt its own deadline of 1s
// (retry.go:293) and retries the DeadlineExceeded, which WithCodes does
// not list (retry.go:55-66): hung attempts at 0, 1.1s and 2.2s with
// BackoffLinear(100ms). The caller's deadline wins: at 2.5s the third
// attempt has 300ms left, and the call ends then (retry.go:56-59).
func TestRecipePerRetryTimeout(t *testing.T) {
	opts := []retry.CallOption{retry.WithMax(3), retry.WithCodes(codes.Unavailable),
		retry.WithPerRetryTimeout(time.Second), retry.WithBackoff(retry.BackoffLinear(100 * time.Millisecond))}
	t.Run("each attempt cut", func(t *testing.T) {
		grpcscript.Test(t, func(t *testing.T) {
			srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, grpcscript.Hang().Times(2), grpcscript.OK()))
			if took, err := call(t.Context(), dial(t, srv, opts)); err != nil || took != 2200*time.Millisecond {
				t.Errorf("EmptyCall = %v after %v, want success after 2.2s", err, took)
			}
			retrytest.AssertAttemptsAt(t, srv, 0, 1100*time.Millisecond, 2200*time.Millisecond)
			for i, a := range srv.Attempts() {
				if a.Deadline != time.Second {
					t.Errorf("attempt %d had %v left, want 1s", i+1, a.Deadline)
				}
			}
		})
	})
	t.Run("the caller's deadline wins", func(t *testing.T) {
		grpcscript.Test(t, func(t *testing.T) {
			srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, grpcscript.Hang().Always()))
			ctx, cancel := context.WithTimeout(t.Context(), 2500*time.Millisecond)
			defer cancel()
			if took, err := call(ctx, dial(t, srv, opts)); status.Code(err) != codes.DeadlineExceeded || took != 2500*time.Millisecond {
				t.Errorf("EmptyCall = %v after %v, want DeadlineExceeded after 2.5s", err, took)
			}
			retrytest.AssertAttemptsAt(t, srv, 0, 1100*time.Millisecond, 2200*time.Millisecond)
			if got := srv.Attempts()[2].Deadline; got != 300*time.Millisecond {
				t.Errorf("the third attempt had %v left, want 300ms", got)
			}
		})
	})
}

// The caller's deadline cuts a wait: 100ms waits, a 150ms deadline, the
// call ends at exactly 150ms with DeadlineExceeded (retry.go:263-269).
func TestRecipeDeadlineCutsWait(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Always()))
		c := dial(t, srv, []retry.CallOption{retry.WithMax(5), retry.WithBackoff(retry.BackoffLinear(100 * time.Millisecond))})
		ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
		defer cancel()
		if took, err := call(ctx, c); status.Code(err) != codes.DeadlineExceeded || took != 150*time.Millisecond {
			t.Errorf("EmptyCall = %v after %v, want DeadlineExceeded after 150ms", err, took)
		}
		retrytest.AssertAttemptsAt(t, srv, 0, 100*time.Millisecond)
	})
}

// Stacked on grpc-go's own retryPolicy, the two layers multiply: 2
// attempts of the interceptor, each 2 of grpc-go, make 4.
func TestRecipeStackedOnARetryPolicy(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(0).Always()))
		cfg := `{"methodConfig": [{"name": [{"service": "grpc.testing.TestService"}],
		  "retryPolicy": {"maxAttempts": 2, "initialBackoff": "1s", "maxBackoff": "1s", "backoffMultiplier": 1, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`
		call(t.Context(), dial(t, srv, []retry.CallOption{retry.WithMax(2)}, grpc.WithDefaultServiceConfig(cfg)))
		retrytest.AssertAttempts(t, srv, 4)
		var got []string
		for _, a := range srv.Attempts() {
			got = append(got, strings.Join(a.Metadata.Get("grpc-previous-rpc-attempts"), ",")+"/"+strings.Join(a.Metadata.Get(retry.AttemptMetadataKey), ","))
		}
		if want := "[/ 1/ /1 1/1]"; fmt.Sprint(got) != want {
			t.Errorf("grpc-previous-rpc-attempts/x-retry-attempt = %v, want %s", got, want)
		}
	})
}
