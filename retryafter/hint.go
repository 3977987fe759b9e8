package retryafter

import (
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Syntax says which notation a hint was written in.
type Syntax int

// The notations a hint can be written in.
const (
	// SyntaxSeconds is a relative count of seconds: delay-seconds in
	// Retry-After (decimals in lenient mode), RateLimit-Reset, Discord's
	// X-RateLimit-Reset-After.
	SyntaxSeconds Syntax = iota + 1
	// SyntaxHTTPDate is an absolute HTTP-date in Retry-After.
	SyntaxHTTPDate
	// SyntaxMillis is a relative count of milliseconds: Retry-After-Ms,
	// X-Ms-Retry-After-Ms, X-Amz-Retry-After.
	SyntaxMillis
	// SyntaxGoDuration is a Go duration string such as "6m0s" (OpenAI's
	// reset headers).
	SyntaxGoDuration
	// SyntaxRFC3339 is an absolute RFC 3339 instant (Anthropic's reset
	// headers).
	SyntaxRFC3339
	// SyntaxEpoch is an absolute instant in Unix epoch seconds (GitHub, X and
	// Discord reset headers).
	SyntaxEpoch
	// SyntaxStructuredField is the t parameter of an exhausted quota in the
	// IETF RateLimit field.
	SyntaxStructuredField
	// SyntaxProviderDefault is a wait the provider documents for responses
	// that carry no hint (GitHub: one minute).
	SyntaxProviderDefault
)

var syntaxNames = [...]string{
	SyntaxSeconds:         "seconds",
	SyntaxHTTPDate:        "HTTP-date",
	SyntaxMillis:          "milliseconds",
	SyntaxGoDuration:      "Go duration",
	SyntaxRFC3339:         "RFC 3339 instant",
	SyntaxEpoch:           "epoch seconds",
	SyntaxStructuredField: "RateLimit t",
	SyntaxProviderDefault: "provider default",
}

// String returns the notation's name, for example "HTTP-date".
func (k Syntax) String() string {
	if k > 0 && int(k) < len(syntaxNames) {
		return syntaxNames[k]
	}
	return "Syntax(" + itoa(int(k)) + ")"
}

// Hint is a wait hint read from one field of a response.
type Hint struct {
	// Delay is how long the server asked the client to wait, measured from
	// the reference instant (now, or the response's Date header with
	// [WithDateHeader]). It is never negative: an instant in the past gives
	// 0. It saturates at [Forever] and is not clamped: a [Limits] does that.
	Delay time.Duration
	// At is the instant the server named, in UTC, for absolute notations
	// (HTTP-date, RFC 3339, epoch seconds); the zero Time for relative ones.
	At time.Time
	// Field is the name of the field the hint came from, spelled as its
	// specification spells it, for example "Retry-After" or
	// "X-RateLimit-Reset-Tokens"; empty for a provider default.
	Field string
	// Value is the field value as received, untrimmed.
	Value string
	// Syntax is the notation the value was written in.
	Syntax Syntax
	// Provider is the provider whose convention was used to read the field;
	// 0 for the standard fields read without opting in.
	Provider Provider
}

// String describes the hint on one line, for example
// `Retry-After: "120" (seconds) = 2m`.
func (h Hint) String() string {
	if h.Syntax == SyntaxProviderDefault {
		return h.Provider.String() + " default = " + schedfmt.Duration(h.Delay)
	}
	s := h.Field + ": " + quote(h.Value) + " (" + h.Syntax.String()
	if h.Provider != 0 {
		s += ", " + h.Provider.String()
	}
	return s + ") = " + schedfmt.Duration(h.Delay)
}

// until is the wait from ref to t: never negative, saturating.
func until(t, ref time.Time) time.Duration {
	return max(0, t.Sub(ref))
}
