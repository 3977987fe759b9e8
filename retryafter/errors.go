package retryafter

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The sentinel errors. Every error this package returns wraps exactly one
// of them (a response-level error may also wrap the errors of the sources
// it skipped), so callers test with [errors.Is]. Each one means "the server
// gave no usable hint: use your own backoff". None of them ever means a
// delay of 0.
var (
	// ErrEmpty reports a field that is present but empty, or holds only
	// whitespace.
	ErrEmpty = errors.New("retryafter: empty value")
	// ErrMalformed reports a value that does not follow the field's
	// grammar: a sign, an exponent, NaN, trailing text, an impossible date,
	// a zone other than GMT, and so on.
	ErrMalformed = errors.New("retryafter: malformed value")
	// ErrNoHint reports a response, or a field, that carries no wait hint:
	// a status outside the gate, no known field, a RateLimit field whose
	// quotas are not exhausted, or only malformed sources.
	ErrNoHint = errors.New("retryafter: no wait hint")
)

// Forever is the delay that out-of-range hints saturate to: the largest
// [time.Duration]. A number too large for a Duration means "a very long
// time", never a negative or wrapped delay, and never an error.
const Forever = time.Duration(math.MaxInt64)

// valueError is the error for one bad field value. It names the field, the
// value (quoted, truncated when long) and what was expected, and unwraps to
// its sentinel.
type valueError struct {
	field string // "Retry-After"
	value string // the raw value, untrimmed
	kind  error  // ErrEmpty, ErrMalformed or ErrNoHint
	want  string // what was expected, or why it was rejected; may be empty
}

func (e *valueError) Error() string {
	var b strings.Builder
	b.WriteString("retryafter: ")
	if len(e.field) > quoteLimit { // a name passed to ParseField
		b.WriteString(quote(e.field))
	} else {
		b.WriteString(e.field)
	}
	b.WriteByte(' ')
	b.WriteString(quote(e.value))
	b.WriteString(": ")
	b.WriteString(strings.TrimPrefix(e.kind.Error(), "retryafter: "))
	if e.want != "" {
		b.WriteString(": ")
		b.WriteString(e.want)
	}
	return b.String()
}

func (e *valueError) Unwrap() error { return e.kind }

func malformed(field, value, want string) error {
	return &valueError{field: field, value: value, kind: ErrMalformed, want: want}
}

func empty(field, value string) error {
	return &valueError{field: field, value: value, kind: ErrEmpty}
}

// quoteLimit is how many bytes of a value an error message quotes.
const quoteLimit = 48

// quote quotes s for a message, keeping at most quoteLimit bytes (cut at a
// rune boundary) and saying how long the whole value was, so that a 1 MB
// header never becomes a 1 MB error.
func quote(s string) string {
	if len(s) <= quoteLimit {
		return strconv.Quote(s)
	}
	cut := quoteLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// stripPrefix drops the package prefix of an error's text, for errors that
// are quoted inside another of this package's errors.
func stripPrefix(err error) string {
	return strings.TrimPrefix(err.Error(), "retryafter: ")
}

// writeSkipped appends "; skipped " and the errors of the sources that were
// skipped, separated by "; ", to a message; nothing when there were none.
func writeSkipped(b *strings.Builder, skipped []error) {
	for i, err := range skipped {
		if i == 0 {
			b.WriteString("; skipped ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(stripPrefix(err))
	}
}
