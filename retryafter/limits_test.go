package retryafter_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

func TestDefaultFallback(t *testing.T) {
	want := map[int]time.Duration{-1: time.Second, 0: time.Second, 1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second,
		4: 8 * time.Second, 5: 16 * time.Second, 6: 30 * time.Second, 7: 30 * time.Second, 1000: 30 * time.Second}
	for attempt, w := range want {
		if got := retryafter.DefaultFallback(attempt); got != w {
			t.Errorf("DefaultFallback(%d) = %s, want %s", attempt, schedfmt.Duration(got), schedfmt.Duration(w))
		}
	}
}

// fixed returns a Fallback that always returns d.
func fixed(d time.Duration) func(int) time.Duration {
	return func(int) time.Duration { return d }
}

func hintOf(d time.Duration) retryafter.Hint {
	return retryafter.Hint{Delay: d, Field: "Retry-After", Value: retryafter.FormatSeconds(max(d, 0)), Syntax: retryafter.SyntaxSeconds}
}

func TestPolicyApplyHint(t *testing.T) {
	malformed := fmt.Errorf("test: %w", retryafter.ErrMalformed)
	for _, tc := range []struct {
		name    string
		p       retryafter.Limits
		hint    time.Duration
		err     error
		attempt int
		want    retryafter.Wait // Hint and Err are checked separately
	}{
		{"hint", retryafter.Limits{}, 2 * time.Minute, nil, 1,
			retryafter.Wait{Delay: 2 * time.Minute, Origin: retryafter.OriginHint}},
		{"hint at Max", retryafter.Limits{OnExceed: retryafter.GiveUp}, 5 * time.Minute, nil, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginHint}},
		{"hint above Max: clamp", retryafter.Limits{}, 24 * time.Hour, nil, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginHint, Clamped: true}},
		{"hint above Max: give up", retryafter.Limits{OnExceed: retryafter.GiveUp}, 24 * time.Hour, nil, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginHint, GiveUp: true}},
		{"Forever under a 1ns Max", retryafter.Limits{Max: 1}, retryafter.Forever, nil, 1,
			retryafter.Wait{Delay: 1, Origin: retryafter.OriginHint, Clamped: true}},
		{"zero hint under Min", retryafter.Limits{Min: time.Second}, 0, nil, 1,
			retryafter.Wait{Delay: time.Second, Origin: retryafter.OriginHint, Floored: true}},
		{"zero hint without Min", retryafter.Limits{}, 0, nil, 1,
			retryafter.Wait{Delay: 0, Origin: retryafter.OriginHint}},
		{"negative hand-made hint", retryafter.Limits{}, -time.Second, nil, 1,
			retryafter.Wait{Delay: 0, Origin: retryafter.OriginHint}},
		{"error: fallback", retryafter.Limits{Fallback: fixed(2 * time.Second)}, 0, malformed, 1,
			retryafter.Wait{Delay: 2 * time.Second, Origin: retryafter.OriginBackoff, Backoff: 2 * time.Second}},
		{"error: default fallback", retryafter.Limits{}, 0, malformed, 3,
			retryafter.Wait{Delay: 4 * time.Second, Origin: retryafter.OriginBackoff, Backoff: 4 * time.Second}},
		{"error: zero fallback replaced", retryafter.Limits{Fallback: fixed(0)}, 0, malformed, 2,
			retryafter.Wait{Delay: 2 * time.Second, Origin: retryafter.OriginBackoff, Backoff: 2 * time.Second}},
		{"error: negative fallback replaced", retryafter.Limits{Fallback: fixed(-time.Hour)}, 0, malformed, 1,
			retryafter.Wait{Delay: time.Second, Origin: retryafter.OriginBackoff, Backoff: time.Second}},
		{"error: fallback above Max", retryafter.Limits{Fallback: fixed(10 * time.Minute)}, 0, malformed, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginBackoff, Backoff: 10 * time.Minute, Clamped: true}},
		{"error: fallback above Max never gives up", retryafter.Limits{Fallback: fixed(10 * time.Minute), OnExceed: retryafter.GiveUp}, 0, malformed, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginBackoff, Backoff: 10 * time.Minute, Clamped: true}},
		{"error: fallback below Min", retryafter.Limits{Min: time.Second, Fallback: fixed(10 * time.Millisecond)}, 0, malformed, 1,
			retryafter.Wait{Delay: time.Second, Origin: retryafter.OriginBackoff, Backoff: 10 * time.Millisecond, Floored: true}},
		{"at least backoff: backoff longer", retryafter.Limits{AtLeastBackoff: true, Fallback: fixed(4 * time.Second)}, time.Second, nil, 1,
			retryafter.Wait{Delay: 4 * time.Second, Origin: retryafter.OriginBackoff, Backoff: 4 * time.Second}},
		{"at least backoff: hint longer", retryafter.Limits{AtLeastBackoff: true, Fallback: fixed(4 * time.Second)}, 10 * time.Second, nil, 1,
			retryafter.Wait{Delay: 10 * time.Second, Origin: retryafter.OriginHint, Backoff: 4 * time.Second}},
		{"at least backoff: backoff above Max clamps", retryafter.Limits{AtLeastBackoff: true, OnExceed: retryafter.GiveUp, Fallback: fixed(time.Hour)}, time.Second, nil, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginBackoff, Backoff: time.Hour, Clamped: true}},
		{"at least backoff: hint above Max gives up", retryafter.Limits{AtLeastBackoff: true, OnExceed: retryafter.GiveUp, Fallback: fixed(time.Second)}, time.Hour, nil, 1,
			retryafter.Wait{Delay: 5 * time.Minute, Origin: retryafter.OriginHint, Backoff: time.Second, GiveUp: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.p.ApplyHint(hintOf(tc.hint), tc.err, tc.attempt)
			if (got.Hint == nil) != (tc.err != nil) || got.Err != tc.err {
				t.Errorf("ApplyHint(%s, %v) = %v: hint %v, err %v", schedfmt.Duration(tc.hint), tc.err, got, got.Hint, got.Err)
			}
			got.Hint, got.Err = nil, nil
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || got.Clamped != tc.want.Clamped || got.Floored != tc.want.Floored || got.GiveUp != tc.want.GiveUp ||
				got.Delay != tc.want.Delay || got.Origin != tc.want.Origin || got.Backoff != tc.want.Backoff {
				t.Errorf("ApplyHint(%s, %v) = %+v\nwant %+v", schedfmt.Duration(tc.hint), tc.err, got, tc.want)
			}
		})
	}
}

// TestPolicyFallbackAttempt checks that Apply hands its attempt to
// Fallback.
func TestPolicyFallbackAttempt(t *testing.T) {
	var got []int
	p := retryafter.Limits{Fallback: func(a int) time.Duration { got = append(got, a); return time.Second }}
	for a := 1; a <= 3; a++ {
		p.Apply(response(500), t0, a)
	}
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Errorf("Fallback got attempts %v, want [1 2 3]", got)
	}
}

func TestPolicyDecideNilResponse(t *testing.T) {
	d := retryafter.Limits{}.Apply(nil, t0, 1)
	if !errors.Is(d.Err, retryafter.ErrNoHint) || d.Delay != time.Second {
		t.Errorf("Apply(nil) = %v, want the 1s fallback with ErrNoHint", d)
	}
}

func TestPolicyPanics(t *testing.T) {
	for _, tc := range []struct {
		p    retryafter.Limits
		want string
	}{
		{retryafter.Limits{Min: -1}, "retryafter: Limits: negative Min -1ns, want Min >= 0"},
		{retryafter.Limits{Max: -time.Second}, "retryafter: Limits: negative Max -1s, want Max >= 0 (0 means DefaultMax, 5m)"},
		{retryafter.Limits{Min: 2 * time.Second, Max: time.Second}, "retryafter: Limits: Min 2s above Max 1s, want Min <= Max"},
		{retryafter.Limits{Min: 10 * time.Minute}, "retryafter: Limits: Min 10m above Max 5m (DefaultMax, as Max is 0), want Min <= Max"},
		{retryafter.Limits{OnExceed: 7}, "retryafter: Limits: unknown OnExceed 7, want Clamp or GiveUp"},
	} {
		for name, call := range map[string]func(){
			"Apply":     func() { tc.p.Apply(response(429, "Retry-After", "1"), t0, 1) },
			"ApplyHint": func() { tc.p.ApplyHint(hintOf(time.Second), nil, 1) },
		} {
			if got := panicText(call); got != tc.want {
				t.Errorf("%+v.%s: panic = %q, want %q", tc.p, name, got, tc.want)
			}
		}
	}
}

// TestDecisionString pins the one-line description of each kind of
// decision.
func TestDecisionString(t *testing.T) {
	gh := retryafter.WithProviders(retryafter.GitHub, retryafter.OpenAI)
	var b strings.Builder
	for _, tc := range []struct {
		name string
		p    retryafter.Limits
		resp *http.Response
	}{
		{"seconds", retryafter.Limits{}, response(429, "Retry-After", "120")},
		{"date", retryafter.Limits{}, response(503, "Retry-After", "Wed, 12 Aug 2026 09:02:00 GMT")},
		{"clamped", retryafter.Limits{}, response(429, "Retry-After", "86400")},
		{"give up", retryafter.Limits{OnExceed: retryafter.GiveUp}, response(429, "Retry-After", "86400")},
		{"floored", retryafter.Limits{Min: time.Second}, response(429, "Retry-After", "0")},
		{"malformed", retryafter.Limits{Fallback: fixed(1500 * time.Millisecond)}, response(429, "Retry-After", "soon")},
		{"skipped then hint", retryafter.Limits{}, response(429, "Retry-After-Ms", "NaN", "Retry-After", "3")},
		{"no header", retryafter.Limits{}, response(429)},
		{"status", retryafter.Limits{}, response(500, "Retry-After", "3")},
		{"backoff longer", retryafter.Limits{AtLeastBackoff: true, Fallback: fixed(4 * time.Second)}, response(429, "Retry-After", "1")},
		{"provider", retryafter.Limits{Options: []retryafter.Option{gh}}, response(429, "X-RateLimit-Remaining-Tokens", "0", "X-RateLimit-Reset-Tokens", "6m0s")},
		{"provider default", retryafter.Limits{Options: []retryafter.Option{gh}}, response(403)},
		{"long value", retryafter.Limits{}, response(429, "Retry-After", strings.Repeat("7", 100))},
	} {
		fmt.Fprintf(&b, "%s\n\t%v\n", tc.name, tc.p.Apply(tc.resp, t0, 1))
	}
	golden.Check(t, "decisions", b.String())
}
