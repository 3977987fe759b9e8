package retryafter

import "time"

// This file holds the one number reader behind every numeric field: delay
// seconds, milliseconds, epoch seconds, RateLimit's t. It never converts
// through float64, never multiplies without a range check, and reads each
// byte once.

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// decimalEnd returns the length of the leading 1*DIGIT ["." 1*DIGIT] of s
// (only 1*DIGIT when frac is false), or 0 when s does not start with a
// digit. A "." with no digit after it is not part of the number.
func decimalEnd(s string, frac bool) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || !frac || i+1 >= len(s) || s[i] != '.' || !isDigit(s[i+1]) {
		return i
	}
	i += 2
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// scaled reads s, which must be exactly 1*DIGIT ["." 1*DIGIT] (only 1*DIGIT
// when frac is false), as a count of unit. The result saturates at Forever
// instead of wrapping, and a positive remainder below one nanosecond
// rounds up, so a positive value never becomes 0. unit must be a power of
// ten nanoseconds.
func scaled(s string, unit time.Duration, frac bool) (time.Duration, bool) {
	n := decimalEnd(s, frac)
	if n == 0 || n != len(s) {
		return 0, false
	}
	intEnd := 0
	for intEnd < len(s) && isDigit(s[intEnd]) {
		intEnd++
	}
	limit := uint64(Forever / unit)
	var whole uint64
	for _, c := range []byte(s[:intEnd]) {
		d := uint64(c - '0')
		if whole > (limit-d)/10 {
			return Forever, true
		}
		whole = whole*10 + d
	}
	total := time.Duration(whole) * unit
	if intEnd == len(s) {
		return total, true
	}
	f := fraction(s[intEnd+1:], unit)
	if total > Forever-f {
		return Forever, true
	}
	return total + f, true
}

// fraction returns the value of the decimal fraction digits ("5" for .5)
// as a part of unit, rounded up to a whole nanosecond.
func fraction(digits string, unit time.Duration) time.Duration {
	var f time.Duration
	scale := unit
	for _, c := range []byte(digits) {
		d := time.Duration(c - '0')
		if scale > 1 {
			scale /= 10
			f += d * scale
			continue
		}
		if d != 0 {
			return f + 1
		}
	}
	return f
}

// trimOWS strips the optional whitespace (SP and HTAB, RFC 9110 §5.6.3)
// around a field value. Other spaces, such as NO-BREAK SPACE, stay and make
// the value malformed.
func trimOWS(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	return s[i:j]
}
