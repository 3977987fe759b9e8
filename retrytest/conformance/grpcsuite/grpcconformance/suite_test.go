package grpcconformance_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// A Spec that contradicts itself, or holds values out of range, is an
// error naming the field and what was expected.
func TestSpecErrors(t *testing.T) {
	base := labSpec
	for _, tc := range []struct {
		name string
		edit func(s *grpcconformance.Spec)
		want string
	}{
		{"no attempts", func(s *grpcconformance.Spec) { s.Policy.Attempts = 0 },
			"the Spec has values out of range: Policy.Attempts 0, want the attempts the client makes in all, 1 or more (a gRPC client always stops)"},
		{"above the cap", func(s *grpcconformance.Spec) { s.AttemptsCap = 4 },
			"the Spec contradicts itself: Policy.Attempts 5 is above AttemptsCap 4: the client makes at most 4; want Policy.Attempts 4"},
		{"both lists", func(s *grpcconformance.Spec) { s.NonRetryable = []codes.Code{codes.ResourceExhausted} },
			"the Spec contradicts itself: code ResourceExhausted is both Retryable and NonRetryable"},
		{"OK", func(s *grpcconformance.Spec) { s.NonRetryable = []codes.Code{codes.OK} },
			"the Spec has values out of range: code OK, want a code from Canceled to Unauthenticated"},
		{"nothing retryable", func(s *grpcconformance.Spec) { s.Retryable = []codes.Code{}; s.Pushback, s.Throttle = nil, nil },
			"the Spec contradicts itself: Retryable is empty, but Policy.Attempts is 5: want the codes the client retries (nil means Unavailable), or Policy.Attempts 1"},
		{"pushback on nothing", func(s *grpcconformance.Spec) { s.Retryable = []codes.Code{}; s.Policy.Attempts = 1; s.Throttle = nil },
			"the Spec contradicts itself: Pushback is declared, but Retryable is empty: a pushback is read on a retryable code only (gRFC A6)"},
		{"throttle", func(s *grpcconformance.Spec) { s.Throttle.TokenRatio = 0 },
			"the Spec has values out of range: Throttle{MaxTokens: 10, TokenRatio: 0}, want both > 0"},
		{"invalid pushback", func(s *grpcconformance.Spec) { s.Pushback.Invalid = 7 },
			"Pushback.Invalid InvalidPushback(7), want StopsRetrying or WaitsBackoff"},
		{"attempt timeout", func(s *grpcconformance.Spec) { s.AttemptTimeout = -time.Second },
			"AttemptTimeout -1s, want >= 0s (0 means none)"},
		{"attempt key", func(s *grpcconformance.Spec) { s.AttemptKey = "X-Retry-Attempt" },
			`AttemptKey "X-Retry-Attempt", want a metadata key: lowercase, no space, no leading colon`},
		{"policy", func(s *grpcconformance.Spec) { s.Policy.Jitter = retrytest.FactorJitter; s.Policy.JitterFactor = 2 },
			"the Spec has values out of range: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.edit(&s)
			_, err := grpcconformance.CheckClient(t, s, labClient(nil))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckClient = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// A waiver turns a failure into Waived, goes stale when its property or
// case holds, and is an error when it names nothing or gives no reason.
func TestWaive(t *testing.T) {
	check := func(t *testing.T, b bugs, opts ...grpcconformance.Option) *conformance.Report {
		t.Helper()
		r, err := grpcconformance.CheckClient(t, labSpec(), labClient(b), opts...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("case", func(t *testing.T) {
		r := check(t, bugs{"retries-internal": true}, grpcconformance.Waive("NonRetryableCodes/internal", "known"))
		if !r.Passed() || !slices.Equal(r.Names(conformance.Waived), []string{"NonRetryableCodes/internal"}) {
			t.Errorf("waived %v, passed %v, want NonRetryableCodes/internal waived alone\n%s", r.Names(conformance.Waived), r.Passed(), r)
		}
	})
	t.Run("property", func(t *testing.T) {
		r := check(t, bugs{"deadline-per-attempt": true}, grpcconformance.Waive("DeadlineSpansAttempts", "known"))
		if !r.Passed() || !slices.Equal(r.Names(conformance.Waived), []string{"DeadlineSpansAttempts"}) {
			t.Errorf("waived %v, passed %v, want DeadlineSpansAttempts waived\n%s", r.Names(conformance.Waived), r.Passed(), r)
		}
	})
	t.Run("stale", func(t *testing.T) {
		r := check(t, nil, grpcconformance.Waive("PushbackWaited", "known"), grpcconformance.Waive("NonRetryableCodes/internal", "known"))
		if r.Passed() || !slices.Equal(r.Names(conformance.Stale), []string{"NonRetryableCodes/internal", "PushbackWaited"}) {
			t.Errorf("stale %v, want both waivers stale, failing the suite\n%s", r.Names(conformance.Stale), r)
		}
	})
	t.Run("no such case", func(t *testing.T) {
		r := check(t, nil, grpcconformance.Waive("NonRetryableCodes/teapot", "known"))
		if !slices.Equal(r.Failed(), []string{"NonRetryableCodes"}) || !strings.Contains(r.String(), `has no case "teapot": its cases are canceled, unknown`) {
			t.Errorf("failed %v, want NonRetryableCodes failed naming its cases\n%s", r.Failed(), r)
		}
	})
	for _, tc := range []struct{ name, waive, reason, want string }{
		{"no such property", "RetryAfterSeconds", "x", `Waive("RetryAfterSeconds"): the gRPC client has no such property, want one of FirstAttemptImmediate, `},
		{"no reason", "PushbackWaited", "", `Waive("PushbackWaited"): no reason`},
		{"bad case", "PushbackWaited/Longer", "x", `a case is named by one lowercase word`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := grpcconformance.CheckClient(t, labSpec(), labClient(nil), grpcconformance.Waive(tc.waive, tc.reason))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CheckClient = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// The failure texts of planted bugs, pinned: the report with the table of
// each failing case.
func TestGolden(t *testing.T) {
	for _, bug := range []string{"ignores-pushback", "no-throttle", "deadline-per-attempt", "pushback-keeps-backoff"} {
		t.Run(bug, func(t *testing.T) {
			r, err := grpcconformance.CheckClient(t, labSpec(), labClient(bugs{bug: true}))
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, bug, r.String()+"\n")
		})
	}
}
