package retryafter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

type fieldCase struct {
	field     string
	value     string
	providers []retryafter.Provider
	strict    bool
	want      time.Duration
	wantErr   error
}

var fieldCases = []fieldCase{
	// The name is matched in any case.
	{field: "retry-after", value: "5", want: 5 * time.Second},
	{field: "RETRY-AFTER-MS", value: "0.5", want: 500 * time.Microsecond},
	{field: "Retry-After-Ms", value: "0.0000001", want: 1}, // below 1ns rounds up
	{field: "Retry-After-Ms", value: "9223372036854.775807", want: retryafter.Forever},
	{field: "Retry-After-Ms", value: "99999999999999999999", want: retryafter.Forever},
	{field: "Retry-After-Ms", value: "", wantErr: retryafter.ErrEmpty},
	{field: "X-Ms-Retry-After-Ms", value: " 100 ", want: 100 * time.Millisecond},
	{field: "X-Amz-Retry-After", value: "0", want: 0},
	{field: "RateLimit-Reset", value: "99999999999", want: retryafter.Forever},

	// Provider fields need their provider.
	{field: "X-RateLimit-Reset-Requests", value: "1s", wantErr: retryafter.ErrNoHint},
	{field: "X-RateLimit-Reset-Requests", value: "1s", providers: []retryafter.Provider{retryafter.Anthropic}, wantErr: retryafter.ErrNoHint},
	{field: "X-RateLimit-Reset-Requests", value: "1s", providers: []retryafter.Provider{retryafter.OpenAI}, want: time.Second},
	{field: "Anthropic-RateLimit-Requests-Reset", value: "2026-08-12T09:00:30Z", wantErr: retryafter.ErrNoHint},
	{field: "X-RateLimit-Reset", value: "1786525260", wantErr: retryafter.ErrNoHint},
	{field: "X-Rate-Limit-Reset", value: "1786525260", wantErr: retryafter.ErrNoHint},
	{field: "X-RateLimit-Reset-After", value: "1.5", wantErr: retryafter.ErrNoHint},
	{field: "X-Unknown-Reset", value: "1", wantErr: retryafter.ErrNoHint},

	// X-RateLimit-Reset is integer epoch seconds at GitHub, decimal at
	// Discord; with both opted in, either reading will do.
	{field: "X-RateLimit-Reset", value: "1786525260.5", providers: []retryafter.Provider{retryafter.GitHub}, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset", value: "1786525260.5", providers: []retryafter.Provider{retryafter.Discord}, want: 60500 * time.Millisecond},
	{field: "X-RateLimit-Reset", value: "1786525260.5", providers: []retryafter.Provider{retryafter.GitHub, retryafter.Discord}, want: 60500 * time.Millisecond},
	{field: "X-RateLimit-Reset", value: "99999999999999999999", providers: []retryafter.Provider{retryafter.GitHub}, want: time.Date(2262, 4, 11, 23, 47, 16, 854775807, time.UTC).Sub(t0)},

	// OpenAI's Go durations.
	{field: "X-RateLimit-Reset-Tokens", value: "1.5h", providers: []retryafter.Provider{retryafter.OpenAI}, want: 90 * time.Minute},
	{field: "X-RateLimit-Reset-Tokens", value: "1h0m0.000000001s", providers: []retryafter.Provider{retryafter.OpenAI}, want: time.Hour + 1},
	{field: "X-RateLimit-Reset-Tokens", value: "100us", providers: []retryafter.Provider{retryafter.OpenAI}, want: 100 * time.Microsecond},
	{field: "X-RateLimit-Reset-Tokens", value: "100µs", providers: []retryafter.Provider{retryafter.OpenAI}, want: 100 * time.Microsecond},
	{field: "X-RateLimit-Reset-Tokens", value: "100μs", providers: []retryafter.Provider{retryafter.OpenAI}, want: 100 * time.Microsecond},
	{field: "X-RateLimit-Reset-Tokens", value: "7ns", providers: []retryafter.Provider{retryafter.OpenAI}, want: 7},
	{field: "X-RateLimit-Reset-Tokens", value: "9999999999h", providers: []retryafter.Provider{retryafter.OpenAI}, want: retryafter.Forever},
	{field: "X-RateLimit-Reset-Tokens", value: "2562047h47m16.854775807s", providers: []retryafter.Provider{retryafter.OpenAI}, want: retryafter.Forever},
	{field: "X-RateLimit-Reset-Tokens", value: "2562047h47m16.854775808s", providers: []retryafter.Provider{retryafter.OpenAI}, want: retryafter.Forever},
	{field: "X-RateLimit-Reset-Tokens", value: "1h1h", providers: []retryafter.Provider{retryafter.OpenAI}, want: 2 * time.Hour},
	{field: "X-RateLimit-Reset-Tokens", value: "-1s", providers: []retryafter.Provider{retryafter.OpenAI}, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset-Tokens", value: ".5s", providers: []retryafter.Provider{retryafter.OpenAI}, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset-Tokens", value: "1.s", providers: []retryafter.Provider{retryafter.OpenAI}, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset-Tokens", value: "1", providers: []retryafter.Provider{retryafter.OpenAI}, want: time.Second},
	{field: "X-RateLimit-Reset-Tokens", value: "1", providers: []retryafter.Provider{retryafter.OpenAI}, strict: true, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset-Tokens", value: "0", providers: []retryafter.Provider{retryafter.OpenAI}, strict: true, want: 0},
	{field: "X-RateLimit-Reset-Tokens", value: "1.5", providers: []retryafter.Provider{retryafter.OpenAI}, wantErr: retryafter.ErrMalformed},
	{field: "X-RateLimit-Reset-Tokens", value: "s", providers: []retryafter.Provider{retryafter.OpenAI}, wantErr: retryafter.ErrMalformed},

	// Anthropic's RFC 3339 instants.
	{field: "Anthropic-RateLimit-Tokens-Reset", value: "2026-08-12T08:00:00Z", providers: []retryafter.Provider{retryafter.Anthropic}, want: 0},
	{field: "Anthropic-RateLimit-Tokens-Reset", value: "2026-08-12T09:00:30.000000000001Z", providers: []retryafter.Provider{retryafter.Anthropic}, want: 30 * time.Second}, // an instant: digits below 1ns are dropped
	{field: "Anthropic-RateLimit-Tokens-Reset", value: "2026-08-12T09:00:30z", providers: []retryafter.Provider{retryafter.Anthropic}, strict: true, wantErr: retryafter.ErrMalformed},
	{field: "Anthropic-RateLimit-Tokens-Reset", value: "2026-08-12T24:00:00Z", providers: []retryafter.Provider{retryafter.Anthropic}, wantErr: retryafter.ErrMalformed},
}

func TestParseField(t *testing.T) {
	for _, tc := range fieldCases {
		opts := []retryafter.Option{retryafter.WithProviders(tc.providers...)}
		if tc.strict {
			opts = append(opts, retryafter.WithStrict())
		}
		got, err := retryafter.ParseField(tc.field, tc.value, t0, opts...)
		if got.Delay != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("ParseField(%q, %q, %v, strict %t) = %s, %v, want %s, %v",
				tc.field, tc.value, tc.providers, tc.strict, schedfmt.Duration(got.Delay), err, schedfmt.Duration(tc.want), tc.wantErr)
		}
	}
}

// TestParseFieldPanics checks the options that panic on bad arguments.
func TestParseFieldPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"unknown provider", func() { retryafter.WithProviders(retryafter.Provider(42)) }, "retryafter: WithProviders: unknown Provider(42)"},
		{"zero provider", func() { retryafter.WithProviders(0) }, "retryafter: WithProviders: unknown Provider(0)"},
		{"status 42", func() { retryafter.WithStatuses(429, 42) }, "retryafter: WithStatuses: status 42 outside 100-999"},
	} {
		got := panicText(tc.f)
		if got != tc.want {
			t.Errorf("%s: panic = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// panicText runs f and returns what it panicked with, or "" if it did not.
func panicText(f func()) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = strings.TrimSpace(toString(r))
		}
	}()
	f()
	return ""
}

func toString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case error:
		return v.Error()
	}
	return "non-string panic"
}

func TestParseProtoDuration(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    time.Duration
		wantErr error
	}{
		{"22s", 22 * time.Second, nil},
		{"0.5s", 500 * time.Millisecond, nil},
		{"0.000000001s", 1, nil},
		{"315576000000s", retryafter.Forever, nil},
		{" 1s ", time.Second, nil},
		{"1.000000000s", time.Second, nil},
		{"1.0000000001s", 0, retryafter.ErrMalformed},
		{"s", 0, retryafter.ErrMalformed},
		{"1S", 0, retryafter.ErrMalformed},
		{"+1s", 0, retryafter.ErrMalformed},
		{"1ms", 0, retryafter.ErrMalformed},
		{"   ", 0, retryafter.ErrEmpty},
	} {
		got, err := retryafter.ParseProtoDuration(tc.value)
		if got != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("ParseProtoDuration(%q) = %s, %v, want %s, %v", tc.value, schedfmt.Duration(got), err, schedfmt.Duration(tc.want), tc.wantErr)
		}
	}
}
