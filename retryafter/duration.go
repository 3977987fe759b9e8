package retryafter

import (
	"strings"
	"time"
)

// This file reads the duration notations providers use outside
// Retry-After: Go duration strings (OpenAI), protobuf JSON durations
// (Google's RetryInfo) and RFC 3339 instants (Anthropic).

// goUnits are the units of time.ParseDuration; "ms" comes before "m" and
// "s" so that it is not read as minutes followed by garbage.
var goUnits = []struct {
	name string
	unit time.Duration
}{
	{"ns", time.Nanosecond},
	{"us", time.Microsecond},
	{"µs", time.Microsecond}, // U+00B5 MICRO SIGN
	{"μs", time.Microsecond}, // U+03BC GREEK SMALL LETTER MU
	{"ms", time.Millisecond},
	{"s", time.Second},
	{"m", time.Minute},
	{"h", time.Hour},
}

// parseGoDuration reads the notation time.Duration.String produces, such as
// "6m0s", "1h2m3s", "23h47m36.648s" or "12ms", and the bare "0". Unlike
// time.ParseDuration it takes no sign, wants digits on both sides of a
// decimal point, and saturates at Forever instead of failing on overflow.
func parseGoDuration(s string) (time.Duration, bool) {
	if s == "0" {
		return 0, true
	}
	var total time.Duration
	for s != "" {
		n := decimalEnd(s, true)
		if n == 0 {
			return 0, false
		}
		num, rest := s[:n], s[n:]
		matched := false
		for _, u := range goUnits {
			if !strings.HasPrefix(rest, u.name) {
				continue
			}
			d, _ := scaled(num, u.unit, true)
			if total > Forever-d {
				total = Forever
			} else {
				total += d
			}
			s = rest[len(u.name):]
			matched = true
			break
		}
		if !matched {
			return 0, false
		}
	}
	return total, true
}

// ParseProtoDuration reads a protobuf JSON Duration as Google APIs send it
// in the retryDelay of a google.rpc.RetryInfo error detail: seconds with up
// to nine fractional digits and an "s" suffix, such as "22s" or "0.5s".
// This package does not read response bodies; decode the JSON yourself and
// pass the field here, then hand the result to [Limits.ApplyHint].
//
// A negative duration is valid protobuf but not a wait, so it is malformed,
// like a missing "s" or any other unit. Huge values saturate at [Forever].
func ParseProtoDuration(value string) (time.Duration, error) {
	const field, want = "retryDelay", `want seconds with an "s" suffix, like "22s" or "0.5s"`
	v := trimOWS(value)
	if v == "" {
		return 0, empty(field, value)
	}
	num, ok := strings.CutSuffix(v, "s")
	if !ok {
		return 0, malformed(field, value, want)
	}
	if dot := strings.IndexByte(num, '.'); dot >= 0 && len(num)-dot-1 > 9 {
		return 0, malformed(field, value, "more than 9 fractional digits, "+want)
	}
	d, ok := scaled(num, time.Second, true)
	if !ok {
		return 0, malformed(field, value, want)
	}
	return d, nil
}

// parseRFC3339 reads an RFC 3339 instant with a zone, such as
// "2026-08-12T09:00:30Z", "2026-08-12T09:00:30.5Z" or
// "2026-08-12T11:00:30+02:00". Lenient mode also takes the lower-case t and
// z that RFC 3339 permits.
func parseRFC3339(v string, strict bool) (time.Time, bool) {
	if !strict {
		v = strings.ToUpper(v)
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	return t, err == nil
}
