package retryafter

import (
	"fmt"
	"time"
)

const fieldRetryAfter = "Retry-After"

// Parse reads one Retry-After field value (RFC 9110 §10.2.3) and returns
// how long to wait from now. It is lenient where real servers are:
//
//   - delay-seconds, plus decimal seconds ("1.5", as Shopify and Microsoft
//     Graph send), exact to the nanosecond with any smaller positive
//     remainder rounded up;
//   - all three HTTP-date forms (IMF-fixdate, RFC 850 with RFC 9110's
//     50-year rule, asctime), with day and month names in any case, an
//     unchecked weekday, fractional seconds and an asctime day without its
//     pad space, as net/http.ParseTime allows; the zone must be GMT;
//   - optional whitespace (SP, HTAB) around the value is ignored.
//
// A date in the past, or equal to now, gives 0 and no error: the requested
// time has passed. A number too large for a [time.Duration] and a date too
// far ahead give [Forever]. The result is never negative.
//
// An empty value gives an error wrapping [ErrEmpty]; anything else that is
// not in the grammar (a sign, an exponent, NaN, Inf, hex, "1_000", ".5",
// "5.", trailing text, a comma-joined list, a zone other than GMT, an
// impossible date) gives an error wrapping [ErrMalformed] that quotes the
// value and says what was expected. Any error means "use your own backoff",
// never 0; a [Limits] applies that rule.
//
// Parse reads each byte of value at most a few times, so it runs in time
// linear in len(value), and it does not allocate unless it fails.
func Parse(value string, now time.Time) (time.Duration, error) {
	h, err := parseRetryAfter(value, now, false)
	return h.Delay, err
}

// ParseStrict is [Parse] restricted to the grammar of RFC 9110: whole
// seconds only; HTTP-dates with names in their exact case, a weekday that
// matches the date, whole seconds, and an asctime day written as 2DIGIT or
// SP DIGIT. Everything ParseStrict accepts, Parse accepts with the same
// result.
func ParseStrict(value string, now time.Time) (time.Duration, error) {
	h, err := parseRetryAfter(value, now, true)
	return h.Delay, err
}

func parseRetryAfter(value string, ref time.Time, strict bool) (Hint, error) {
	v := trimOWS(value)
	if v == "" {
		return Hint{}, empty(fieldRetryAfter, value)
	}
	if isDigit(v[0]) {
		d, ok := scaled(v, time.Second, !strict)
		if !ok {
			return Hint{}, malformed(fieldRetryAfter, value, secondsProblem(v, strict))
		}
		return Hint{Delay: d, Field: fieldRetryAfter, Value: value, Syntax: SyntaxSeconds}, nil
	}
	if v[0] == '+' || v[0] == '-' {
		return Hint{}, malformed(fieldRetryAfter, value, "a sign is not allowed, "+wantSecondsOrDate(strict))
	}
	t, why := parseHTTPDate(v, ref, strict)
	if why != "" {
		return Hint{}, malformed(fieldRetryAfter, value, why)
	}
	return Hint{Delay: until(t, ref), At: t, Field: fieldRetryAfter, Value: value, Syntax: SyntaxHTTPDate}, nil
}

// secondsProblem says what is wrong with v, which starts with a digit but
// is not a valid number of seconds.
func secondsProblem(v string, strict bool) string {
	if strict && decimalEnd(v, true) == len(v) {
		return "fractional seconds, want delay-seconds (1*DIGIT); only Parse accepts decimals"
	}
	i := decimalEnd(v, !strict)
	return fmt.Sprintf("unexpected %q at byte %d, %s", v[i:i+1], i, wantSecondsOrDate(strict))
}
