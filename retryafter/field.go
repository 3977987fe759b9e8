package retryafter

import (
	"net/http"
	"strings"
	"time"
)

// fieldSpec says how to read one field, for one provider (0 for the
// standard and near-standard fields everyone sends).
type fieldSpec struct {
	name     string // as its specification spells it
	provider Provider
	read     func(f *fieldSpec, value string, ref time.Time, strict bool) (Hint, error)
	// For the numeric readers:
	unit time.Duration
	frac bool
	want string
}

// The fields this package reads, by name. FromResponse fixes their order of
// precedence; ParseField only needs to find them.
var (
	specRetryAfterMs   = &fieldSpec{name: "Retry-After-Ms", read: readRelative, unit: time.Millisecond, frac: true, want: `want milliseconds (1*DIGIT ["." 1*DIGIT])`}
	specMsRetryAfterMs = &fieldSpec{name: "X-Ms-Retry-After-Ms", read: readRelative, unit: time.Millisecond, want: "want integer milliseconds (1*DIGIT)"}
	specRetryAfter     = &fieldSpec{name: fieldRetryAfter, read: readRetryAfter}
	specAmzRetryAfter  = &fieldSpec{name: "X-Amz-Retry-After", read: readRelative, unit: time.Millisecond, want: "want integer milliseconds (1*DIGIT)"}
	specRateLimit      = &fieldSpec{name: fieldRateLimit, read: readRateLimit}
	specRateLimitReset = &fieldSpec{name: "RateLimit-Reset", read: readRelative, unit: time.Second, want: "want integer seconds (1*DIGIT)"}

	specOpenAIRequests = &fieldSpec{name: "X-RateLimit-Reset-Requests", provider: OpenAI, read: readGoDuration}
	specOpenAITokens   = &fieldSpec{name: "X-RateLimit-Reset-Tokens", provider: OpenAI, read: readGoDuration}

	specAnthropicRequests     = &fieldSpec{name: "Anthropic-RateLimit-Requests-Reset", provider: Anthropic, read: readRFC3339}
	specAnthropicTokens       = &fieldSpec{name: "Anthropic-RateLimit-Tokens-Reset", provider: Anthropic, read: readRFC3339}
	specAnthropicInputTokens  = &fieldSpec{name: "Anthropic-RateLimit-Input-Tokens-Reset", provider: Anthropic, read: readRFC3339}
	specAnthropicOutputTokens = &fieldSpec{name: "Anthropic-RateLimit-Output-Tokens-Reset", provider: Anthropic, read: readRFC3339}

	specGitHubReset = &fieldSpec{name: "X-RateLimit-Reset", provider: GitHub, read: readEpoch, want: "want integer epoch seconds (1*DIGIT)"}
	specXReset      = &fieldSpec{name: "X-Rate-Limit-Reset", provider: X, read: readEpoch, want: "want integer epoch seconds (1*DIGIT)"}

	specDiscordResetAfter = &fieldSpec{name: "X-RateLimit-Reset-After", provider: Discord, read: readRelative, unit: time.Second, frac: true, want: `want seconds (1*DIGIT ["." 1*DIGIT])`}
	specDiscordReset      = &fieldSpec{name: "X-RateLimit-Reset", provider: Discord, read: readEpoch, frac: true, want: `want epoch seconds (1*DIGIT ["." 1*DIGIT])`}
)

var allSpecs = []*fieldSpec{
	specRetryAfterMs, specMsRetryAfterMs, specRetryAfter, specAmzRetryAfter, specRateLimit, specRateLimitReset,
	specOpenAIRequests, specOpenAITokens,
	specAnthropicRequests, specAnthropicTokens, specAnthropicInputTokens, specAnthropicOutputTokens,
	specGitHubReset, specXReset, specDiscordResetAfter, specDiscordReset,
}

func (f *fieldSpec) hint(value string, d time.Duration, k Syntax) Hint {
	return Hint{Delay: d, Field: f.name, Value: value, Syntax: k, Provider: f.provider}
}

// readRelative reads a count of f.unit: integer, or decimal when f.frac.
func readRelative(f *fieldSpec, value string, _ time.Time, _ bool) (Hint, error) {
	v := trimOWS(value)
	if v == "" {
		return Hint{}, empty(f.name, value)
	}
	d, ok := scaled(v, f.unit, f.frac)
	if !ok {
		return Hint{}, malformed(f.name, value, f.want)
	}
	k := SyntaxSeconds
	if f.unit == time.Millisecond {
		k = SyntaxMillis
	}
	return f.hint(value, d, k), nil
}

func readRetryAfter(_ *fieldSpec, value string, ref time.Time, strict bool) (Hint, error) {
	return parseRetryAfter(value, ref, strict)
}

func readRateLimit(f *fieldSpec, value string, _ time.Time, _ bool) (Hint, error) {
	d, err := parseRateLimit(value)
	if err != nil {
		return Hint{}, err
	}
	return f.hint(value, d, SyntaxStructuredField), nil
}

// readGoDuration reads OpenAI's reset fields; lenient mode also takes bare
// integer seconds, which Azure OpenAI was seen sending.
func readGoDuration(f *fieldSpec, value string, _ time.Time, strict bool) (Hint, error) {
	v := trimOWS(value)
	if v == "" {
		return Hint{}, empty(f.name, value)
	}
	if d, ok := parseGoDuration(v); ok {
		return f.hint(value, d, SyntaxGoDuration), nil
	}
	if !strict {
		if d, ok := scaled(v, time.Second, false); ok {
			return f.hint(value, d, SyntaxSeconds), nil
		}
	}
	want := `want a Go duration like "6m0s" or "20ms"`
	if !strict {
		want += " or integer seconds"
	}
	return Hint{}, malformed(f.name, value, want)
}

func readRFC3339(f *fieldSpec, value string, ref time.Time, strict bool) (Hint, error) {
	v := trimOWS(value)
	if v == "" {
		return Hint{}, empty(f.name, value)
	}
	t, ok := parseRFC3339(v, strict)
	if !ok {
		return Hint{}, malformed(f.name, value, `want an RFC 3339 instant with a zone, like "2026-08-12T09:00:30Z"`)
	}
	h := f.hint(value, until(t, ref), SyntaxRFC3339)
	h.At = t.UTC()
	return h, nil
}

// readEpoch reads Unix epoch seconds: integer, or decimal when f.frac.
func readEpoch(f *fieldSpec, value string, ref time.Time, _ bool) (Hint, error) {
	v := trimOWS(value)
	if v == "" {
		return Hint{}, empty(f.name, value)
	}
	// An epoch beyond what a Duration holds (the year 2262) saturates.
	sinceEpoch, ok := scaled(v, time.Second, f.frac)
	if !ok {
		return Hint{}, malformed(f.name, value, f.want)
	}
	t := time.Unix(0, 0).UTC().Add(sinceEpoch)
	h := f.hint(value, until(t, ref), SyntaxEpoch)
	h.At = t
	return h, nil
}

// ParseField reads one field value whose name says how to read it: any
// field [FromResponse] knows, such as "Retry-After-Ms", "RateLimit" or,
// with [WithProviders], "X-RateLimit-Reset-Tokens". The name is matched
// case-insensitively. Absolute values (dates, instants, epochs) are
// measured against now. [WithStrict] applies; [WithStatuses] and
// [WithDateHeader] do not, since there is no response.
//
// A provider's field is read only when that provider is opted in, because
// the same name means different things at different providers; otherwise,
// and for a field this package does not know, the error wraps [ErrNoHint].
// When several opted-in providers share the name (GitHub and Discord both
// send X-RateLimit-Reset), the first reading that succeeds wins.
func ParseField(name, value string, now time.Time, opts ...Option) (Hint, error) {
	o := buildOptions(opts)
	key := http.CanonicalHeaderKey(name)
	var known, enabled []*fieldSpec
	for _, f := range allSpecs {
		if http.CanonicalHeaderKey(f.name) != key {
			continue
		}
		known = append(known, f)
		if f.provider == 0 || o.has(f.provider) {
			enabled = append(enabled, f)
		}
	}
	switch {
	case len(known) == 0:
		return Hint{}, &valueError{field: name, value: value, kind: ErrNoHint, want: "not a field this package reads"}
	case len(enabled) == 0:
		var opt []string
		for _, f := range known {
			opt = append(opt, "WithProviders("+f.provider.String()+")")
		}
		return Hint{}, &valueError{field: name, value: value, kind: ErrNoHint, want: "read only with " + strings.Join(opt, " or ")}
	}
	var first error
	for _, f := range enabled {
		h, err := f.read(f, value, now, o.strict)
		if err == nil {
			return h, nil
		}
		if first == nil {
			first = err
		}
	}
	return Hint{}, first
}
