package grpcgo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
)

const (
	emptyCall = "/grpc.testing.TestService/EmptyCall"
	unaryCall = "/grpc.testing.TestService/UnaryCall"
)

// config is a service config for the test service: a retryPolicy of
// maxAttempts attempts, 1s doubling to a 5s cap, UNAVAILABLE retried, and
// extra fields of the method config or the service config's end.
func config(maxAttempts int, methodExtra, serviceExtra string) string {
	return fmt.Sprintf(`{"methodConfig": [{"name": [{"service": "grpc.testing.TestService"}], %s
  "retryPolicy": {"maxAttempts": %d, "initialBackoff": "1s", "maxBackoff": "5s", "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE"]}}] %s}`, methodExtra, maxAttempts, serviceExtra)
}

// policy is what config(5, …) declares, as grpc-go draws it: the cap
// before a factor of [0.8, 1.2) (stream.go:884-888).
var policy = retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second,
	Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: 5, Tolerance: time.Nanosecond}

// dial is the test service's client over a connection to srv with the
// service config cfg.
func dial(t *testing.T, srv *grpcscript.Server, cfg string, opts ...grpc.DialOption) testgrpc.TestServiceClient {
	t.Helper()
	cc, err := srv.Dial(append([]grpc.DialOption{grpc.WithDefaultServiceConfig(cfg)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return testgrpc.NewTestServiceClient(cc)
}

var unavailable = grpcscript.Status(codes.Unavailable, "overloaded")

// waitsOf are the waits between the attempts of one call.
func waitsOf(attempts []grpcscript.Attempt) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(attempts); i++ {
		out = append(out, attempts[i].At.Sub(attempts[i-1].At))
	}
	return out
}

// The ladder, over a sample of 100 calls that fail every attempt: each
// call makes exactly 5 attempts, each wait in its window — [0.8s, 1.2s],
// [1.6s, 2.4s], [3.2s, 4.8s], then [4s, 6s], the jitter after the 5s cap
// — and the factors drawn cover every sixteenth of [0.8, 1.2]: a window
// declared a sixteenth wider at either edge fails. The jitter is the math/rand/v2
// global's, so a sample stands in for the two edges of a seam.
func TestRecipeWindows(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Always()))
		c := dial(t, srv, config(5, "", ""))
		const calls = 100
		var sixteenths [16]int
		above := 0
		for range calls {
			before := len(srv.Attempts())
			_, err := c.EmptyCall(t.Context(), &testgrpc.Empty{})
			if status.Code(err) != codes.Unavailable || !strings.HasPrefix(err.Error(), "max retries exhausted: failed after 5 attempts: ") {
				t.Fatalf("EmptyCall = %v, want Unavailable, wrapped after 5 attempts (stream.go:876)", err)
			}
			waits := waitsOf(srv.Attempts()[before:])
			if !retrytest.AssertDelaysWithin(t, retrytest.Waits(waits...), policy.Windows()...) {
				return
			}
			for k, w := range waits {
				f := float64(w)/float64(policy.Ceiling(k+1)) - (1 - policy.JitterFactor) // from 0 to 2·JitterFactor
				sixteenths[max(0, min(int(f/(policy.JitterFactor/8)), 15))]++
			}
			if waits[3] > 5*time.Second {
				above++
			}
		}
		for i, n := range sixteenths {
			if n == 0 {
				lo := 1 - policy.JitterFactor + policy.JitterFactor/8*float64(i)
				t.Errorf("no factor in [%.3f, %.3f) of %d: the jitter is narrower than declared, [%.3g, %.3g]: %v",
					lo, lo+policy.JitterFactor/8, 4*calls, 1-policy.JitterFactor, 1+policy.JitterFactor, sixteenths)
			}
		}
		if above == 0 {
			t.Errorf("no wait after the cap above maxBackoff 5s in %d calls: the jitter comes after the cap (stream.go:885-887)", calls)
		}
	})
}

// maxAttempts is capped at 5 (dialoptions.go:43, service_config.go:288-290)
// unless grpc.WithMaxCallAttempts raises the cap; below 2 it means 5
// (dialoptions.go:801-803). The pushback of 0 makes every wait 0.
func TestRecipeMaxAttempts(t *testing.T) {
	for _, tc := range []struct {
		config, callAttempts, want int
	}{
		{4, 0, 4},
		{5, 0, 5},
		{6, 0, 5},
		{8, 0, 5},
		{8, 7, 7},
		{8, 1, 5},
		{3, 7, 3},
	} {
		t.Run(fmt.Sprintf("maxAttempts %d, WithMaxCallAttempts(%d)", tc.config, tc.callAttempts), func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(0).Always()))
				var opts []grpc.DialOption
				if tc.callAttempts != 0 {
					opts = append(opts, grpc.WithMaxCallAttempts(tc.callAttempts))
				}
				c := dial(t, srv, config(tc.config, "", ""), opts...)
				c.EmptyCall(t.Context(), &testgrpc.Empty{})
				retrytest.AssertAttempts(t, srv, tc.want)
			})
		})
	}
}

// A pushback in a trailers-only response is waited exactly, without cap
// or jitter, and restarts the ladder (stream.go:880-882); a negative,
// malformed or repeated one ends the retries (stream.go:843-855), and so
// does a non-retryable code with a pushback (stream.go:866-868). A failure
// that sent metadata first is not trailers-only: grpc-go never retries it
// (stream.go:836-838). The wait ends with the call's deadline
// (stream.go:899-901).
func TestRecipePushback(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		replies []grpcscript.Reply
		within  []retrytest.Window // the waits; nil: a single attempt
		code    codes.Code         // the call's
	}{
		{"2500", []grpcscript.Reply{unavailable.Pushback(2500 * ms), grpcscript.OK()},
			[]retrytest.Window{{Min: 2500 * ms, Max: 2500 * ms}}, codes.OK},
		{"0", []grpcscript.Reply{unavailable.Pushback(0), grpcscript.OK()},
			[]retrytest.Window{{}}, codes.OK},
		{"beyond maxBackoff", []grpcscript.Reply{unavailable.Pushback(time.Minute), grpcscript.OK()},
			[]retrytest.Window{{Min: time.Minute, Max: time.Minute}}, codes.OK},
		{"restarts the ladder", []grpcscript.Reply{unavailable.Times(2), unavailable.Pushback(2500 * ms), unavailable, grpcscript.OK()},
			[]retrytest.Window{policy.Window(1), policy.Window(2), {Min: 2500 * ms, Max: 2500 * ms}, policy.Window(1)}, codes.OK},
		{"negative", []grpcscript.Reply{unavailable.Trailer(grpcscript.PushbackKey, "-1"), grpcscript.OK()}, nil, codes.Unavailable},
		{"malformed", []grpcscript.Reply{unavailable.Trailer(grpcscript.PushbackKey, "soon"), grpcscript.OK()}, nil, codes.Unavailable},
		{"fraction", []grpcscript.Reply{unavailable.Trailer(grpcscript.PushbackKey, "2.5"), grpcscript.OK()}, nil, codes.Unavailable},
		{"two values", []grpcscript.Reply{unavailable.Trailer(grpcscript.PushbackKey, "100", "200"), grpcscript.OK()}, nil, codes.Unavailable},
		{"non-retryable code", []grpcscript.Reply{grpcscript.Status(codes.ResourceExhausted, "quota").Pushback(100 * ms), grpcscript.OK()}, nil, codes.ResourceExhausted},
		{"after metadata", []grpcscript.Reply{unavailable.Header("x-stage", "started").Pushback(100 * ms), grpcscript.OK()}, nil, codes.Unavailable},
		{"after metadata, no pushback", []grpcscript.Reply{unavailable.Header("x-stage", "started"), grpcscript.OK()}, nil, codes.Unavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, tc.replies...))
				c := dial(t, srv, config(5, "", ""))
				_, err := c.EmptyCall(t.Context(), &testgrpc.Empty{})
				if status.Code(err) != tc.code {
					t.Errorf("EmptyCall = %v, want code %v", err, tc.code)
				}
				if tc.within == nil {
					retrytest.AssertAttempts(t, srv, 1)
					return
				}
				retrytest.AssertDelaysWithin(t, srv, tc.within...)
				srv.AssertDone(t)
			})
		})
	}
	t.Run("beyond the deadline", func(t *testing.T) {
		grpcscript.Test(t, func(t *testing.T) {
			srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(10*time.Second), grpcscript.OK()))
			c := dial(t, srv, config(5, "", ""))
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			defer cancel()
			start := time.Now()
			_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
			if status.Code(err) != codes.DeadlineExceeded || time.Since(start) != 3*time.Second {
				t.Errorf("EmptyCall = %v after %v, want DeadlineExceeded after exactly 3s", err, time.Since(start))
			}
			retrytest.AssertAttempts(t, srv, 1)
		})
	})
}

// One deadline spans every attempt: the context's, or the method config's
// timeout (stream.go:401-402). Each attempt carries what is left of it and
// grpc-previous-rpc-attempts, the attempts before it (stream.go:631,
// internal/transport/http2_client.go:613-615), with the caller's metadata;
// the deadline cuts the wait that would pass it (stream.go:899-901).
func TestRecipeDeadlineAcrossAttempts(t *testing.T) {
	for _, how := range []string{"context", "method config timeout"} {
		t.Run(how, func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(time.Second).Always()))
				ctx := metadata.AppendToOutgoingContext(t.Context(), "x-request-id", "r1")
				cfg := config(5, "", "")
				if how == "context" {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, 2500*time.Millisecond)
					defer cancel()
				} else {
					cfg = config(5, `"timeout": "2.5s",`, "")
				}
				c := dial(t, srv, cfg)
				start := time.Now()
				_, err := c.EmptyCall(ctx, &testgrpc.Empty{})
				if status.Code(err) != codes.DeadlineExceeded || time.Since(start) != 2500*time.Millisecond {
					t.Errorf("EmptyCall = %v after %v, want DeadlineExceeded after exactly 2.5s", err, time.Since(start))
				}
				retrytest.AssertAttemptsAt(t, srv, 0, time.Second, 2*time.Second)
				for i, a := range srv.Attempts() {
					left := []time.Duration{2500 * time.Millisecond, 1500 * time.Millisecond, 500 * time.Millisecond}[i]
					prev := []string{"", "1", "2"}[i]
					if a.Deadline != left || strings.Join(a.Metadata.Get("grpc-previous-rpc-attempts"), ",") != prev ||
						strings.Join(a.Metadata.Get("x-request-id"), ",") != "r1" {
						t.Errorf("attempt %d: deadline %v, metadata %v; want %v left, grpc-previous-rpc-attempts %q, x-request-id r1",
							i+1, a.Deadline, a.Metadata, left, prev)
					}
				}
			})
		})
	}
}

// retryThrottling {maxTokens: 10, tokenRatio: 0.1}: tokens start at 10; a
// retryable failure takes one, the last attempt's too, before the
// maxAttempts check (stream.go:872-877); a retry is allowed only while
// more than 5 are left (clientconn.go:1146-1150, 1757-1761); a success
// gives back 0.1 (stream.go:1240-1242, clientconn.go:1770). So: 5
// attempts (10 → 5), then 1 (→ 4), 1 (→ 3); 30 successes bring 6 in
// float64, 5.999999999999994, and a failure leaves 4.99…, no retry; 11
// more bring 6.09…, and the next call retries once.
func TestRecipeThrottle(t *testing.T) {
	throttling := `, "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}`
	t.Run("tokens", func(t *testing.T) {
		grpcscript.Test(t, func(t *testing.T) {
			srv := grpcscript.NewServer(t,
				grpcscript.Method(emptyCall, unavailable.Pushback(0).Always()),
				grpcscript.Method(unaryCall, grpcscript.OK().Always()),
			)
			c := dial(t, srv, config(5, "", throttling))
			var got []int
			fail := func() {
				before := len(srv.Attempts())
				c.EmptyCall(t.Context(), &testgrpc.Empty{})
				got = append(got, len(srv.Attempts())-before)
			}
			succeed := func(n int) {
				for range n {
					if _, err := c.UnaryCall(t.Context(), &testgrpc.SimpleRequest{}); err != nil {
						t.Fatal(err)
					}
				}
			}
			fail()
			fail()
			fail()
			succeed(30)
			fail()
			succeed(11)
			fail()
			if want := []int{5, 1, 1, 1, 2}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("attempts per failing call = %v, want %v", got, want)
			}
		})
	})
	// A malformed pushback takes a token whatever the code (stream.go:845-848);
	// a non-retryable code alone takes none (stream.go:866-868, before 872).
	for _, tc := range []struct {
		name  string
		first grpcscript.Reply
		want  int // attempts of the failing call after four such replies
	}{
		{"malformed pushback", grpcscript.Status(codes.ResourceExhausted, "").Trailer(grpcscript.PushbackKey, "soon"), 1},
		{"non-retryable code", grpcscript.Status(codes.ResourceExhausted, ""), 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grpcscript.Test(t, func(t *testing.T) {
				srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, tc.first.Times(4), unavailable.Pushback(0).Always()))
				c := dial(t, srv, config(5, "", throttling))
				for range 4 {
					c.EmptyCall(t.Context(), &testgrpc.Empty{})
				}
				c.EmptyCall(t.Context(), &testgrpc.Empty{})
				retrytest.AssertAttempts(t, srv, 4+tc.want)
			})
		})
	}
}

// What grpc-go does not retry: a code the policy does not list, a
// success, and the status of the last attempt wrapped in "max retries
// exhausted" (stream.go:876), whose status.Code still reads it.
func TestRecipeNotRetried(t *testing.T) {
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, grpcscript.Status(codes.Internal, "bug"), grpcscript.OK()))
		c := dial(t, srv, config(5, "", ""))
		_, err := c.EmptyCall(t.Context(), &testgrpc.Empty{})
		if status.Code(err) != codes.Internal {
			t.Errorf("EmptyCall = %v, want Internal, not retried", err)
		}
		if _, err := c.EmptyCall(t.Context(), &testgrpc.Empty{}); err != nil {
			t.Errorf("EmptyCall = %v, want success", err)
		}
		retrytest.AssertAttempts(t, srv, 2)
	})
	grpcscript.Test(t, func(t *testing.T) {
		srv := grpcscript.NewServer(t, grpcscript.Method(emptyCall, unavailable.Pushback(0).Always()))
		c := dial(t, srv, config(2, "", ""))
		_, err := c.EmptyCall(t.Context(), &testgrpc.Empty{})
		want := "max retries exhausted: failed after 2 attempts: rpc error: code = Unavailable desc = overloaded"
		if status.Code(err) != codes.Unavailable || err.Error() != want || status.Convert(err).Message() != want {
			t.Errorf("EmptyCall = %q (message %q), want code Unavailable, error and message %q", err, status.Convert(err).Message(), want)
		}
	})
}
