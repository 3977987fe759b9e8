package retryafter_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// response builds a response from a status and header key-value pairs.
func response(status int, kv ...string) *http.Response {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return &http.Response{StatusCode: status, Header: h, Body: http.NoBody}
}

// source is one entry of the documented precedence, as a valid and as a
// malformed set of fields.
type source struct {
	name      string
	valid     []string
	malformed []string
	want      time.Duration
}

// precedence lists FromResponse's sources in their documented order, each
// with a distinct delay.
var precedence = []source{
	{"Retry-After-Ms", []string{"Retry-After-Ms", "1000"}, []string{"Retry-After-Ms", "-1"}, 1 * time.Second},
	{"X-Ms-Retry-After-Ms", []string{"X-Ms-Retry-After-Ms", "2000"}, []string{"X-Ms-Retry-After-Ms", "2e3"}, 2 * time.Second},
	{"Retry-After", []string{"Retry-After", "3"}, []string{"Retry-After", "NaN"}, 3 * time.Second},
	{"X-Amz-Retry-After", []string{"X-Amz-Retry-After", "4000"}, []string{"X-Amz-Retry-After", "invalid"}, 4 * time.Second},
	{"RateLimit", []string{"RateLimit", `"q";r=0;t=5`}, []string{"RateLimit", `q;r=0;t=5`}, 5 * time.Second},
	{"RateLimit-Reset", []string{"RateLimit-Remaining", "0", "RateLimit-Reset", "6"}, []string{"RateLimit-Remaining", "0", "RateLimit-Reset", "6.0"}, 6 * time.Second},
	{"OpenAI reset", []string{"X-RateLimit-Remaining-Requests", "0", "X-RateLimit-Reset-Requests", "7s"}, []string{"X-RateLimit-Remaining-Requests", "0", "X-RateLimit-Reset-Requests", "7 s"}, 7 * time.Second},
	{"GitHub default", nil, nil, time.Minute},
}

// TestFromResponsePrecedence checks every pair of sources: the earlier one
// wins, and when it is malformed the later one does.
func TestFromResponsePrecedence(t *testing.T) {
	opts := []retryafter.Option{retryafter.WithProviders(retryafter.OpenAI, retryafter.GitHub)}
	for i, a := range precedence {
		for _, b := range precedence[i+1:] {
			t.Run(a.name+"/"+b.name, func(t *testing.T) {
				resp := response(429, append(append([]string{}, a.valid...), b.valid...)...)
				if h, err := retryafter.FromResponse(resp, t0, opts...); err != nil || h.Delay != a.want {
					t.Errorf("FromResponse(%v) = %v, %v, want %s from %s", resp.Header, h, err, schedfmt.Duration(a.want), a.name)
				}
				if a.malformed == nil {
					return
				}
				resp = response(429, append(append([]string{}, a.malformed...), b.valid...)...)
				d := retryafter.Limits{Options: opts}.Apply(resp, t0, 1)
				if d.Err != nil || d.Delay != b.want || len(d.Unusable) != 1 || !errors.Is(d.Unusable[0], retryafter.ErrMalformed) {
					t.Errorf("Apply(%v) = %v, skipped %v, want %s from %s after skipping %s", resp.Header, d, d.Unusable, schedfmt.Duration(b.want), b.name, a.name)
				}
			})
		}
	}
}

func TestFromResponseStatusGate(t *testing.T) {
	gh := retryafter.WithProviders(retryafter.GitHub)
	for _, tc := range []struct {
		status int
		opts   []retryafter.Option
		read   bool
	}{
		{429, nil, true},
		{503, nil, true},
		{500, nil, false},
		{403, nil, false},
		{301, nil, false},
		{200, nil, false},
		{403, []retryafter.Option{gh}, true},
		{500, []retryafter.Option{gh}, false},
		{500, []retryafter.Option{retryafter.WithStatuses(500)}, true},
		{429, []retryafter.Option{retryafter.WithStatuses(500)}, false},
		{429, []retryafter.Option{retryafter.WithStatuses(500), gh}, true},
		{403, []retryafter.Option{retryafter.WithStatuses(500), gh}, true},
		{200, []retryafter.Option{retryafter.WithStatuses()}, true},
		{302, []retryafter.Option{retryafter.WithStatuses()}, true},
	} {
		h, err := retryafter.FromResponse(response(tc.status, "Retry-After", "7"), t0, tc.opts...)
		if tc.read && (err != nil || h.Delay != 7*time.Second) {
			t.Errorf("FromResponse(%d with Retry-After: 7, %d options) = %v, %v, want 7s", tc.status, len(tc.opts), h, err)
		}
		if !tc.read && !errors.Is(err, retryafter.ErrNoHint) {
			t.Errorf("FromResponse(%d with Retry-After: 7, %d options) = %v, %v, want ErrNoHint", tc.status, len(tc.opts), h, err)
		}
	}
}

// TestFromResponseHints checks the whole Hint for each notation.
func TestFromResponseHints(t *testing.T) {
	all := retryafter.WithProviders(retryafter.OpenAI, retryafter.Anthropic, retryafter.GitHub, retryafter.X, retryafter.Discord)
	for _, tc := range []struct {
		name string
		resp *http.Response
		want retryafter.Hint
	}{
		{"seconds", response(429, "retry-after", "120"),
			retryafter.Hint{Delay: 2 * time.Minute, Field: "Retry-After", Value: "120", Syntax: retryafter.SyntaxSeconds}},
		{"HTTP-date", response(503, "Retry-After", "Wed, 12 Aug 2026 09:02:00 GMT"),
			retryafter.Hint{Delay: 2 * time.Minute, At: t0.Add(2 * time.Minute), Field: "Retry-After", Value: "Wed, 12 Aug 2026 09:02:00 GMT", Syntax: retryafter.SyntaxHTTPDate}},
		{"milliseconds", response(429, "RETRY-AFTER-MS", "125.5"),
			retryafter.Hint{Delay: 125500 * time.Microsecond, Field: "Retry-After-Ms", Value: "125.5", Syntax: retryafter.SyntaxMillis}},
		{"RateLimit split over lines", response(429, "RateLimit", `"a";r=0;t=5`, "RateLimit", `"b";r=0;t=9`),
			retryafter.Hint{Delay: 9 * time.Second, Field: "RateLimit", Value: `"a";r=0;t=5, "b";r=0;t=9`, Syntax: retryafter.SyntaxStructuredField}},
		{"Go duration", response(429, "X-RateLimit-Remaining-Tokens", "0", "X-RateLimit-Reset-Tokens", "1m30s"),
			retryafter.Hint{Delay: 90 * time.Second, Field: "X-RateLimit-Reset-Tokens", Value: "1m30s", Syntax: retryafter.SyntaxGoDuration, Provider: retryafter.OpenAI}},
		{"RFC 3339", response(429, "Anthropic-RateLimit-Output-Tokens-Remaining", "0", "Anthropic-RateLimit-Output-Tokens-Reset", "2026-08-12T09:00:10Z"),
			retryafter.Hint{Delay: 10 * time.Second, At: t0.Add(10 * time.Second), Field: "Anthropic-RateLimit-Output-Tokens-Reset", Value: "2026-08-12T09:00:10Z", Syntax: retryafter.SyntaxRFC3339, Provider: retryafter.Anthropic}},
		{"X epoch", response(429, "X-Rate-Limit-Remaining", "0", "X-Rate-Limit-Reset", "1786525211"),
			retryafter.Hint{Delay: 11 * time.Second, At: t0.Add(11 * time.Second), Field: "X-Rate-Limit-Reset", Value: "1786525211", Syntax: retryafter.SyntaxEpoch, Provider: retryafter.X}},
		{"Discord prefers reset-after", response(429, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset-After", "1.25", "X-RateLimit-Reset", "1786525264.57"),
			retryafter.Hint{Delay: 1250 * time.Millisecond, Field: "X-RateLimit-Reset-After", Value: "1.25", Syntax: retryafter.SyntaxSeconds, Provider: retryafter.Discord}},
		{"GitHub default", response(403),
			retryafter.Hint{Delay: time.Minute, Syntax: retryafter.SyntaxProviderDefault, Provider: retryafter.GitHub}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := retryafter.FromResponse(tc.resp, t0, all)
			if err != nil || got != tc.want {
				t.Errorf("FromResponse(%v) = %#v, %v\nwant %#v", tc.resp.Header, got, err, tc.want)
			}
		})
	}
}

// TestFromResponseProviders checks that provider fields are read only when
// opted in, only for exhausted quotas, and that the longest reset wins.
func TestFromResponseProviders(t *testing.T) {
	openAI := retryafter.WithProviders(retryafter.OpenAI)
	anthropic := retryafter.WithProviders(retryafter.Anthropic)
	mixed := response(429,
		"X-RateLimit-Remaining-Requests", "0", "X-RateLimit-Reset-Requests", "3s",
		"X-RateLimit-Remaining-Tokens", "10", "X-RateLimit-Reset-Tokens", "1h",
		"Anthropic-RateLimit-Tokens-Remaining", "0", "Anthropic-RateLimit-Tokens-Reset", "2026-08-12T09:00:08Z",
		"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1786525230",
	)
	for _, tc := range []struct {
		name    string
		opts    []retryafter.Option
		want    time.Duration
		wantErr error
	}{
		{"none opted in", nil, 0, retryafter.ErrNoHint},
		{"OpenAI: only the exhausted bucket", []retryafter.Option{openAI}, 3 * time.Second, nil},
		{"Anthropic", []retryafter.Option{anthropic}, 8 * time.Second, nil},
		{"both: the longest", []retryafter.Option{openAI, anthropic}, 8 * time.Second, nil},
		{"GitHub epoch", []retryafter.Option{retryafter.WithProviders(retryafter.GitHub, retryafter.OpenAI)}, 30 * time.Second, nil},
		{"Discord reads the same fields", []retryafter.Option{retryafter.WithProviders(retryafter.Discord)}, 30 * time.Second, nil},
	} {
		h, err := retryafter.FromResponse(mixed, t0, tc.opts...)
		if h.Delay != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("%s: FromResponse = %v, %v, want %s, %v", tc.name, h, err, schedfmt.Duration(tc.want), tc.wantErr)
		}
	}
}

func TestFromResponseRemaining(t *testing.T) {
	gh := retryafter.WithProviders(retryafter.GitHub)
	for _, tc := range []struct {
		remaining string
		want      time.Duration
	}{
		{"0", 30 * time.Second},
		{"00", 30 * time.Second},
		{" 0\t", 30 * time.Second},
		{"1", time.Minute}, // not exhausted: GitHub's default
		{"-0", time.Minute},
		{"0.0", time.Minute},
		{"", time.Minute},
	} {
		resp := response(403, "X-RateLimit-Remaining", tc.remaining, "X-RateLimit-Reset", "1786525230")
		if h, err := retryafter.FromResponse(resp, t0, gh); err != nil || h.Delay != tc.want {
			t.Errorf("FromResponse(remaining %q) = %v, %v, want %s", tc.remaining, h, err, schedfmt.Duration(tc.want))
		}
	}
}

// TestFromResponseDateHeader checks that WithDateHeader measures every
// absolute notation against the Date header, and falls back to now
// without a valid one.
func TestFromResponseDateHeader(t *testing.T) {
	const serverDate = "Wed, 12 Aug 2026 08:59:00 GMT" // the server's clock is 60s behind
	gh := retryafter.WithProviders(retryafter.GitHub)
	for _, tc := range []struct {
		name string
		resp *http.Response
		want time.Duration
	}{
		{"HTTP-date", response(503, "Date", serverDate, "Retry-After", "Wed, 12 Aug 2026 09:01:00 GMT"), 2 * time.Minute},
		{"epoch", response(403, "Date", serverDate, "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1786525260"), 2 * time.Minute},
		{"seconds are relative anyway", response(503, "Date", serverDate, "Retry-After", "5"), 5 * time.Second},
		{"no Date header", response(503, "Retry-After", "Wed, 12 Aug 2026 09:01:00 GMT"), time.Minute},
		{"malformed Date header", response(503, "Date", "yesterday", "Retry-After", "Wed, 12 Aug 2026 09:01:00 GMT"), time.Minute},
	} {
		h, err := retryafter.FromResponse(tc.resp, t0, retryafter.WithDateHeader(), gh)
		if err != nil || h.Delay != tc.want {
			t.Errorf("%s: FromResponse(WithDateHeader) = %v, %v, want %s", tc.name, h, err, schedfmt.Duration(tc.want))
		}
	}
}

// TestFromResponseFirstLine checks that only the first Retry-After field
// line counts, and that a malformed or empty one is reported as skipped.
func TestFromResponseFirstLine(t *testing.T) {
	for _, tc := range []struct {
		lines   []string
		want    time.Duration
		wantErr error
	}{
		{[]string{"2", "3"}, 2 * time.Second, nil},
		{[]string{"abc", "120"}, 0, retryafter.ErrMalformed},
		{[]string{"", "120"}, 0, retryafter.ErrEmpty},
	} {
		resp := response(429)
		resp.Header["Retry-After"] = tc.lines
		h, err := retryafter.FromResponse(resp, t0)
		if h.Delay != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("FromResponse(Retry-After: %q) = %v, %v, want %s, %v", tc.lines, h, err, schedfmt.Duration(tc.want), tc.wantErr)
		}
		if tc.wantErr != nil && !errors.Is(err, retryafter.ErrNoHint) {
			t.Errorf("FromResponse(Retry-After: %q) = %v, want it to wrap ErrNoHint too", tc.lines, err)
		}
	}
}

// readWatcher fails the test if the body is read.
type readWatcher struct{ t *testing.T }

func (r readWatcher) Read([]byte) (int, error) {
	r.t.Errorf("FromResponse read the response body")
	return 0, errors.New("unexpected read")
}

func (r readWatcher) Close() error { return nil }

func TestFromResponseLeavesBody(t *testing.T) {
	resp := response(429, "Retry-After", "1")
	resp.Body = readWatcher{t}
	if _, err := retryafter.FromResponse(resp, t0); err != nil {
		t.Errorf("FromResponse = %v", err)
	}
}
