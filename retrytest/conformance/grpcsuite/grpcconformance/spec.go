package grpcconformance

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"google.golang.org/grpc/codes"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// Spec is the contract a retrying gRPC client claims: its backoff, the
// codes it retries, and how it treats a server's pushback, a throttle, a
// per-attempt timeout and the metadata of its retries. A Spec that
// contradicts itself is an error the suite reports before it runs, naming
// the field and what was expected.
type Spec struct {
	// Policy is the declared backoff and the attempts in all (the first
	// included): every wait that no pushback decides is held to
	// Policy.Window of its retry. A gRPC client always stops, so
	// Policy.Attempts is required.
	Policy retrytest.Policy
	// OwnRandom says the client draws its jitter from a source of its own
	// that Seams.Rand does not reach (grpc-go and go-grpc-middleware draw
	// from the math/rand globals): WaitsInWindows then reads a sample of
	// about 1,000 waits, each in its window, reaching every eighth of each
	// window with a span, instead of pinning both edges with Seams.Rand.
	OwnRandom bool
	// AttemptsCap is the most attempts the client makes whatever it is
	// configured with: grpc-go caps a retryPolicy's maxAttempts at 5
	// (dialoptions.go:43, service_config.go:288-290) unless
	// grpc.WithMaxCallAttempts raises it. 0 means no cap. A
	// Policy.Attempts above it is a contradiction.
	AttemptsCap int
	// Retryable are the codes the client retries after its backoff; nil
	// means {codes.Unavailable}. The first is the suite's transient
	// failure.
	Retryable []codes.Code
	// NonRetryable are the codes the client returns at once; nil means
	// every code from Canceled to Unauthenticated that Retryable does not
	// name. Each is a case of NonRetryableCodes.
	NonRetryable []codes.Code
	// Pushback says how the client honours the server's pushback, the
	// trailer grpc-retry-pushback-ms (gRFC A6); nil means it reads none,
	// and the properties about it are skipped.
	Pushback *Pushback
	// Throttle is the client's retry throttle, the token bucket of the
	// service config's retryThrottling, shared by the calls on one
	// ClientConn; nil means none, and RetryThrottling is skipped.
	Throttle *Throttle
	// AttemptTimeout is the time the client gives each attempt, cutting
	// it and retrying when it runs out (go-grpc-middleware's
	// WithPerRetryTimeout); 0 means none.
	AttemptTimeout time.Duration
	// AttemptKey is the metadata key by which the client numbers its
	// retries, sending the number of attempts before ("1" on the first
	// retry) and nothing on the first attempt: "grpc-previous-rpc-attempts"
	// for grpc-go, "x-retry-attempt" for go-grpc-middleware. "" skips
	// RetryMetadata.
	AttemptKey string
}

// Pushback says how a client treats the server's pushback. A valid one,
// whole milliseconds of 0 or more, is waited exactly, without cap or
// jitter, and restarts the backoff (gRFC A6); the suite holds every
// client that declares Pushback to that.
type Pushback struct {
	// Invalid says what the client does with a negative or malformed
	// pushback: StopsRetrying (gRFC A6 and grpc-go) or WaitsBackoff.
	Invalid InvalidPushback
}

// InvalidPushback is what a client does with a negative or malformed
// pushback.
type InvalidPushback int

const (
	// StopsRetrying: the call ends with that attempt's status (gRFC A6).
	StopsRetrying InvalidPushback = iota
	// WaitsBackoff: the pushback is ignored, and the retry waits the
	// backoff.
	WaitsBackoff
)

// String returns "stops retrying" or "waits the backoff".
func (v InvalidPushback) String() string {
	switch v {
	case StopsRetrying:
		return "stops retrying"
	case WaitsBackoff:
		return "waits the backoff"
	}
	return fmt.Sprintf("InvalidPushback(%d)", int(v))
}

// Throttle is a retry throttle as gRFC A6 and grpc-go keep it: a bucket
// of MaxTokens tokens, full at first; every attempt that fails with a
// retryable code takes one (the last attempt's too), every call that
// succeeds gives back TokenRatio, and a retry is made only while more
// than MaxTokens/2 are left (clientconn.go:1751-1774).
type Throttle struct {
	// MaxTokens is the bucket's size, service config maxTokens.
	MaxTokens float64
	// TokenRatio is what a success gives back, service config tokenRatio.
	TokenRatio float64
}

// allCodes are the codes a call can end with but OK, in order.
var allCodes = []codes.Code{codes.Canceled, codes.Unknown, codes.InvalidArgument, codes.DeadlineExceeded,
	codes.NotFound, codes.AlreadyExists, codes.PermissionDenied, codes.ResourceExhausted, codes.FailedPrecondition,
	codes.Aborted, codes.OutOfRange, codes.Unimplemented, codes.Internal, codes.Unavailable, codes.DataLoss,
	codes.Unauthenticated}

// normalize fills in the defaults and checks the Spec.
func (s Spec) normalize() (Spec, error) {
	var contra, invalid []string
	bad := func(format string, args ...any) { invalid = append(invalid, fmt.Sprintf(format, args...)) }
	con := func(format string, args ...any) { contra = append(contra, fmt.Sprintf(format, args...)) }
	if err := s.Policy.Validate(); err != nil {
		bad("%v", err)
	}
	switch {
	case s.Policy.Attempts < 1:
		bad("Policy.Attempts %d, want the attempts the client makes in all, 1 or more (a gRPC client always stops)", s.Policy.Attempts)
	case s.AttemptsCap < 0:
		bad("AttemptsCap %d, want >= 0 (0 means no cap)", s.AttemptsCap)
	case s.AttemptsCap > 0 && s.Policy.Attempts > s.AttemptsCap:
		con("Policy.Attempts %d is above AttemptsCap %d: the client makes at most %d; want Policy.Attempts %d, or the cap raised (grpc.WithMaxCallAttempts) and declared",
			s.Policy.Attempts, s.AttemptsCap, s.AttemptsCap, s.AttemptsCap)
	}
	out := s
	if out.Retryable == nil {
		out.Retryable = []codes.Code{codes.Unavailable}
	}
	if out.NonRetryable == nil {
		out.NonRetryable = slices.DeleteFunc(slices.Clone(allCodes), func(c codes.Code) bool { return slices.Contains(out.Retryable, c) })
	}
	for _, c := range append(slices.Clone(out.Retryable), out.NonRetryable...) {
		if c == codes.OK || c > codes.Unauthenticated {
			bad("code %v, want a code from Canceled to Unauthenticated", c)
		}
	}
	for _, c := range out.Retryable {
		if slices.Contains(out.NonRetryable, c) {
			con("code %v is both Retryable and NonRetryable", c)
		}
	}
	if len(out.Retryable) == 0 && out.Policy.Attempts > 1 {
		con("Retryable is empty, but Policy.Attempts is %d: want the codes the client retries (nil means Unavailable), or Policy.Attempts 1", out.Policy.Attempts)
	}
	if s.Pushback != nil && len(out.Retryable) == 0 {
		con("Pushback is declared, but Retryable is empty: a pushback is read on a retryable code only (gRFC A6)")
	}
	if s.Pushback != nil && s.Pushback.Invalid != StopsRetrying && s.Pushback.Invalid != WaitsBackoff {
		bad("Pushback.Invalid %v, want StopsRetrying or WaitsBackoff", s.Pushback.Invalid)
	}
	if th := s.Throttle; th != nil {
		if th.MaxTokens <= 0 || th.TokenRatio <= 0 {
			bad("Throttle{MaxTokens: %v, TokenRatio: %v}, want both > 0 (gRFC A6: maxTokens up to 1000, tokenRatio above 0)", th.MaxTokens, th.TokenRatio)
		}
		if len(out.Retryable) == 0 {
			con("Throttle is declared, but Retryable is empty: the throttle counts retryable failures")
		}
	}
	if s.AttemptTimeout < 0 {
		bad("AttemptTimeout %s, want >= 0s (0 means none)", schedfmt.Duration(s.AttemptTimeout))
	}
	if k := s.AttemptKey; k != "" && (k != strings.ToLower(k) || strings.ContainsFunc(k, unicode.IsSpace) || strings.HasPrefix(k, ":")) {
		bad("AttemptKey %q, want a metadata key: lowercase, no space, no leading colon", k)
	}
	var errs []string
	if len(contra) > 0 {
		errs = append(errs, "grpcconformance: the Spec contradicts itself: "+strings.Join(contra, "; "))
	}
	if len(invalid) > 0 {
		errs = append(errs, "grpcconformance: the Spec has values out of range: "+strings.Join(invalid, "; "))
	}
	if len(errs) > 0 {
		return out, errors.New(strings.Join(errs, "\n"))
	}
	return out, nil
}

// transient is the code the suite fails attempts with: the first
// Retryable code, or Unavailable for a client that retries none.
func (s Spec) transient() codes.Code {
	if len(s.Retryable) == 0 {
		return codes.Unavailable
	}
	return s.Retryable[0]
}

// caseName is the name of a code's case: "resource-exhausted".
func caseName(c codes.Code) string {
	var b strings.Builder
	for i, r := range c.String() {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// bucket is the throttle's model: the attempts it allows, as grpc-go
// keeps it.
type bucket struct{ tokens, max, ratio float64 }

func newBucket(th Throttle) *bucket {
	return &bucket{tokens: th.MaxTokens, max: th.MaxTokens, ratio: th.TokenRatio}
}

// fail takes a token for a failed attempt and reports whether retries
// are now throttled.
func (b *bucket) fail() bool {
	b.tokens = max(b.tokens-1, 0)
	return b.tokens <= b.max/2
}

func (b *bucket) succeed() { b.tokens = min(b.tokens+b.ratio, b.max) }

// failingCall is the attempts a call that fails every attempt makes, of
// attempts at most.
func (b *bucket) failingCall(attempts int) int {
	for n := 1; ; n++ {
		if b.fail() || n >= attempts {
			return n
		}
	}
}
