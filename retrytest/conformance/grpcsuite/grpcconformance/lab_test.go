package grpcconformance_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
)

// The lab is a gRPC retry interceptor written for these tests, correct by
// default, each planted bug a one-line change switched on by name. Each
// must fail the property the suite names for it.

// labPolicy is the lab's backoff: 100ms doubling to an 800ms cap, ±20%,
// 5 attempts.
var labPolicy = retrytest.Policy{First: 100 * time.Millisecond, Growth: 2, Cap: 800 * time.Millisecond,
	Jitter: retrytest.FactorJitter, JitterFactor: 0.2, Attempts: 5, Tolerance: time.Microsecond}

// labSpec is what the correct lab meets.
func labSpec() grpcconformance.Spec {
	return grpcconformance.Spec{
		Policy:         labPolicy,
		Retryable:      []codes.Code{codes.Unavailable, codes.ResourceExhausted},
		Pushback:       &grpcconformance.Pushback{},
		Throttle:       &grpcconformance.Throttle{MaxTokens: 10, TokenRatio: 0.1},
		AttemptTimeout: 300 * time.Millisecond,
		AttemptKey:     "x-retry-attempt",
	}
}

// bugs are the planted bugs, by name.
type bugs map[string]bool

// labBugs name each planted bug, the property it must fail, and every
// property it fails: a bug that spills into others is pinned here.
var labBugs = []struct {
	bug, property string
	fails         []string
}{
	{"retries-internal", "NonRetryableCodes", nil},
	{"ignores-pushback", "PushbackWaited", []string{"PushbackWaited", "PushbackInvalid"}},
	{"retries-negative-pushback", "PushbackInvalid", nil},
	{"no-throttle", "RetryThrottling", nil},
	{"deadline-per-attempt", "DeadlineSpansAttempts", nil},
	{"pushback-keeps-backoff", "PushbackResetsBackoff", nil},
	// The first attempt late makes every instant after it late.
	{"first-delayed", "FirstAttemptImmediate", []string{"FirstAttemptImmediate", "AttemptTimeout", "DeadlineCutsWait", "CancelDuringWait"}},
	{"narrow-jitter", "WaitsInWindows", nil},
	// The throttle's model counts the declared attempts.
	{"one-attempt-short", "AttemptCount", []string{"AttemptCount", "RetryThrottling"}},
	{"retries-first-code-only", "RetryableCodes", nil},
	{"no-attempt-timeout", "AttemptTimeout", nil},
	{"metadata-from-zero", "RetryMetadata", nil},
	// A sleep that no context ends overruns every deadline.
	{"sleep-ignores-context", "DeadlineCutsWait", []string{"DeadlineSpansAttempts", "DeadlineCutsWait", "CancelDuringWait"}},
	{"leaks-watcher", "NoLeaks", nil},
}

// lab is the interceptor of one client: its throttle is the client's.
type lab struct {
	rnd    *rand.Rand
	bugs   bugs
	stop   chan struct{}
	mu     sync.Mutex
	tokens float64
}

func (l *lab) fail() (throttled bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bugs["no-throttle"] {
		return false
	}
	l.tokens = max(l.tokens-1, 0)
	return l.tokens <= 5
}

func (l *lab) succeed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = min(l.tokens+0.1, 10)
}

// pushback reads the trailer: the wait it asks, whether there is one, and
// whether it asks not to retry.
func (l *lab) pushback(md metadata.MD) (d time.Duration, ok, stop bool) {
	v := md.Get(grpcscript.PushbackKey)
	if len(v) == 0 || l.bugs["ignores-pushback"] {
		return 0, false, false
	}
	ms, err := strconv.Atoi(v[0])
	switch {
	case err == nil && ms < 0 && l.bugs["retries-negative-pushback"]:
		return 0, false, false
	case err != nil || ms < 0 || len(v) > 1:
		return 0, false, true
	}
	return time.Duration(ms) * time.Millisecond, true, false
}

func (l *lab) retryable(c codes.Code) bool {
	return c == codes.Unavailable || c == codes.ResourceExhausted && !l.bugs["retries-first-code-only"] || c == codes.Internal && l.bugs["retries-internal"]
}

func (l *lab) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	budget := time.Duration(0)
	if dl, ok := ctx.Deadline(); ok && l.bugs["deadline-per-attempt"] {
		budget = time.Until(dl)
	}
	step := 0 // the backoff's retry number
	if l.bugs["first-delayed"] {
		time.Sleep(labPolicy.First)
	}
	if l.bugs["leaks-watcher"] {
		go func() { <-l.stop }() // never closed
	}
	attempts := labPolicy.Attempts
	if l.bugs["one-attempt-short"] {
		attempts--
	}
	for attempt := 1; ; attempt++ {
		actx := ctx
		if budget > 0 {
			actx = context.WithoutCancel(ctx)
			var cancel context.CancelFunc
			actx, cancel = context.WithTimeout(actx, budget)
			defer cancel()
		}
		if attempt > 1 {
			n := attempt - 1
			if l.bugs["metadata-from-zero"] {
				n--
			}
			actx = metadata.AppendToOutgoingContext(actx, "x-retry-attempt", strconv.Itoa(n))
		}
		cancel := context.CancelFunc(func() {})
		if !l.bugs["no-attempt-timeout"] {
			actx, cancel = context.WithTimeout(actx, labSpec().AttemptTimeout)
		}
		var trailer metadata.MD
		began := time.Now()
		err := invoker(actx, method, req, reply, cc, append(opts, grpc.Trailer(&trailer))...)
		// The attempt's own timeout, not the caller's deadline: the error
		// may be the server's RST_STREAM, which can come before actx's
		// timer has ended actx, at the same instant of the bubble.
		timedOut := !l.bugs["no-attempt-timeout"] && time.Since(began) >= labSpec().AttemptTimeout && ctx.Err() == nil
		cancel()
		if err == nil {
			l.succeed()
			return nil
		}
		if ctx.Err() != nil {
			return status.FromContextError(ctx.Err()).Err()
		}
		if !l.retryable(status.Code(err)) && !timedOut {
			return err
		}
		throttled := l.fail()
		pb, hasPB, stop := l.pushback(trailer)
		if stop || throttled || attempt >= attempts {
			return err
		}
		var wait time.Duration
		if hasPB {
			wait = pb
			if !l.bugs["pushback-keeps-backoff"] {
				step = 0
			} else {
				step++
			}
		} else {
			step++
			c := labPolicy.Ceiling(step)
			f := 0.2
			if l.bugs["narrow-jitter"] {
				f = 0.1
			}
			wait = time.Duration(float64(c) * (1 - f + 2*f*l.rnd.Float64()))
		}
		if l.bugs["sleep-ignores-context"] {
			time.Sleep(wait)
			continue
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return status.FromContextError(ctx.Err()).Err()
		case <-timer.C:
		}
	}
}

// labClient is the lab's adapter: a client over the seams, with the
// interceptor and the bugs.
func labClient(b bugs) func(grpcconformance.Seams) grpcconformance.Call {
	return func(s grpcconformance.Seams) grpcconformance.Call {
		l := &lab{rnd: rand.New(s.Rand), bugs: b, tokens: 10, stop: make(chan struct{})}
		cc, err := s.Dial(grpc.WithUnaryInterceptor(l.intercept))
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
