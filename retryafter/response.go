package retryafter

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// standardOrder is the precedence of the fields read without opting in.
// Retry-After-Ms comes first because the OpenAI, Anthropic and Azure SDKs
// read it first; Retry-After beats the IETF RateLimit field, as the draft
// requires.
var standardOrder = []*fieldSpec{specRetryAfterMs, specMsRetryAfterMs, specRetryAfter, specAmzRetryAfter, specRateLimit}

// bucket is one provider quota: its reset fields count only while its
// remaining field reads 0.
type bucket struct {
	remaining string
	resets    []*fieldSpec // in order of preference; the first valid one is used
}

// RateLimit-Reset of the drafts up to -06 (delta seconds), read when
// RateLimit-Remaining is 0.
var legacyBucket = bucket{"RateLimit-Remaining", []*fieldSpec{specRateLimitReset}}

var providerBuckets = map[Provider][]bucket{
	OpenAI: {
		{"X-RateLimit-Remaining-Requests", []*fieldSpec{specOpenAIRequests}},
		{"X-RateLimit-Remaining-Tokens", []*fieldSpec{specOpenAITokens}},
	},
	Anthropic: {
		{"Anthropic-RateLimit-Requests-Remaining", []*fieldSpec{specAnthropicRequests}},
		{"Anthropic-RateLimit-Tokens-Remaining", []*fieldSpec{specAnthropicTokens}},
		{"Anthropic-RateLimit-Input-Tokens-Remaining", []*fieldSpec{specAnthropicInputTokens}},
		{"Anthropic-RateLimit-Output-Tokens-Remaining", []*fieldSpec{specAnthropicOutputTokens}},
	},
	GitHub:  {{"X-RateLimit-Remaining", []*fieldSpec{specGitHubReset}}},
	X:       {{"X-Rate-Limit-Remaining", []*fieldSpec{specXReset}}},
	Discord: {{"X-RateLimit-Remaining", []*fieldSpec{specDiscordResetAfter, specDiscordReset}}},
}

// gitHubDefault is the wait GitHub documents for a secondary rate limit
// that carries no retry-after: "wait for at least one minute".
const gitHubDefault = time.Minute

// FromResponse reads the server's wait hint from resp's header, measured
// from now (the instant the response was received), and returns the first
// valid hint in this order of precedence:
//
//  1. Retry-After-Ms: milliseconds, decimals allowed (OpenAI, Anthropic and
//     Azure SDKs read it first);
//  2. X-Ms-Retry-After-Ms: integer milliseconds (Azure);
//  3. Retry-After: seconds or an HTTP-date, as [Parse] (or [ParseStrict]
//     with [WithStrict]) reads it; only the first field line counts;
//  4. X-Amz-Retry-After: integer milliseconds (AWS);
//  5. RateLimit: the longest t among exhausted (r=0) quotas (IETF draft);
//  6. RateLimit-Reset, integer seconds, when RateLimit-Remaining is 0
//     (IETF drafts up to -06);
//  7. the reset fields of the providers opted in with [WithProviders],
//     counted only for quotas whose remaining field is 0; the longest
//     wins;
//  8. GitHub's documented one-minute default, when [GitHub] is opted in
//     and a 403 or 429 carries none of the above.
//
// A source that is present but empty or malformed is skipped and the next
// one is tried. If none yields a hint, or the status is outside the gate
// (429 and 503 unless [WithStatuses] changes it), or resp is nil, the error
// wraps [ErrNoHint], and also the errors of the sources it skipped.
//
// FromResponse reads only the header; it never touches resp.Body.
func FromResponse(resp *http.Response, now time.Time, opts ...Option) (Hint, error) {
	o := buildOptions(opts)
	h, _, err := readResponse(resp, now, &o)
	return h, err
}

// readResponse is FromResponse, also returning the errors of the sources it
// skipped on its way to a hint.
func readResponse(resp *http.Response, now time.Time, o *options) (Hint, []error, error) {
	if resp == nil {
		return Hint{}, nil, &noHintError{why: "nil response"}
	}
	if !o.gated(resp.StatusCode) {
		return Hint{}, nil, &noHintError{status: resp.StatusCode, why: "status not in the gate " + o.gateString()}
	}
	hdr := resp.Header
	ref := now
	if o.dateHeader {
		if v := hdr.Get("Date"); v != "" {
			if t, why := parseHTTPDate(trimOWS(v), now, false); why == "" {
				ref = t
			}
		}
	}
	var skipped []error
	read := func(f *fieldSpec, value string) (Hint, bool) {
		h, err := f.read(f, value, ref, o.strict)
		if err != nil {
			skipped = append(skipped, err)
			return Hint{}, false
		}
		return h, true
	}
	for _, f := range standardOrder {
		lines := hdr.Values(f.name)
		if len(lines) == 0 {
			continue
		}
		value := lines[0]
		if f == specRateLimit {
			// A list field may be split over several lines (RFC 9110 §5.3).
			value = strings.Join(lines, ", ")
		}
		if h, ok := read(f, value); ok {
			return h, skipped, nil
		}
	}
	// The longest reset among exhausted quotas: first the legacy IETF
	// fields, then the opted-in providers' together.
	if h, ok := longestReset(hdr, []bucket{legacyBucket}, read); ok {
		return h, skipped, nil
	}
	var buckets []bucket
	for p := OpenAI; int(p) < len(providerNames); p++ {
		if o.has(p) {
			buckets = append(buckets, providerBuckets[p]...)
		}
	}
	if h, ok := longestReset(hdr, buckets, read); ok {
		return h, skipped, nil
	}
	if o.has(GitHub) && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) {
		return Hint{Delay: gitHubDefault, Syntax: SyntaxProviderDefault, Provider: GitHub}, skipped, nil
	}
	return Hint{}, skipped, &noHintError{status: resp.StatusCode, skipped: skipped}
}

// longestReset returns the longest valid reset among the buckets whose
// remaining field reads 0, trying each bucket's reset fields in order.
func longestReset(hdr http.Header, buckets []bucket, read func(*fieldSpec, string) (Hint, bool)) (Hint, bool) {
	var best Hint
	found := false
	for _, b := range buckets {
		if !exhausted(hdr.Get(b.remaining)) {
			continue
		}
		for _, f := range b.resets {
			lines := hdr.Values(f.name)
			if len(lines) == 0 {
				continue
			}
			if h, ok := read(f, lines[0]); ok {
				if !found || h.Delay > best.Delay {
					best, found = h, true
				}
				break
			}
		}
	}
	return best, found
}

// exhausted reports whether a remaining-quota field reads 0.
func exhausted(v string) bool {
	v = trimOWS(v)
	if v == "" {
		return false
	}
	n, ok := scaled(v, 1, false)
	return ok && n == 0
}

func (o *options) gateString() string {
	var codes []string
	for _, c := range o.statuses {
		codes = append(codes, strconv.Itoa(c))
	}
	s := "[" + strings.Join(codes, ", ") + "]"
	if o.has(GitHub) {
		s += " (GitHub adds 403 and 429)"
	}
	return s
}

// noHintError is the error of a response without a usable hint.
type noHintError struct {
	status  int // 0 for a nil response
	why     string
	skipped []error
}

func (e *noHintError) Error() string {
	var b strings.Builder
	b.WriteString("retryafter: ")
	if e.status != 0 {
		b.WriteString(strconv.Itoa(e.status))
		if t := http.StatusText(e.status); t != "" {
			b.WriteString(" " + t)
		}
		b.WriteString(" response")
	} else {
		b.WriteString("response")
	}
	b.WriteString(" carries no wait hint")
	if e.why != "" {
		b.WriteString(": " + e.why)
	}
	writeSkipped(&b, e.skipped)
	return b.String()
}

func (e *noHintError) Unwrap() []error {
	return append([]error{ErrNoHint}, e.skipped...)
}
