package retryafter

import (
	"fmt"
	"time"
)

// This file reads the IETF RateLimit field (draft-ietf-httpapi-ratelimit-
// headers-10), a Structured Field List (RFC 9651) of quota items such as
//
//	RateLimit: "burst";r=0;t=5, "daily";r=100;t=36000
//
// Each item's value is the policy name, an sf-string; r (required) is the
// remaining quota and t (optional) the seconds until more quota is
// available, both non-negative Integers. Only exhausted quotas (r=0) tell
// the client to wait, and it must wait for the longest of their t.
// A malformed field must be ignored as a whole.

const fieldRateLimit = "RateLimit"

// sfParser reads the subset of RFC 9651 a List needs: members that are
// items or inner lists, each with parameters. It records the r and t
// parameters of each top-level item and whether its value was a string.
type sfParser struct {
	s   string
	i   int
	why string // the first syntax error
}

type quotaItem struct {
	isString   bool
	r, t       int64
	hasR, hasT bool
	rOK, tOK   bool // the parameter was an Integer
}

type sfKind int

const (
	sfOther sfKind = iota
	sfString
	sfInteger
)

func (p *sfParser) fail(format string, args ...any) bool {
	if p.why == "" {
		p.why = fmt.Sprintf("byte %d: ", p.i) + fmt.Sprintf(format, args...)
	}
	return false
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// list parses the whole field value into its top-level items.
func (p *sfParser) list() ([]quotaItem, bool) {
	for p.peek() == ' ' {
		p.i++
	}
	var items []quotaItem
	for p.i < len(p.s) {
		var it quotaItem
		if p.peek() == '(' {
			if !p.innerList() {
				return nil, false
			}
		} else {
			k, _, ok := p.bareItem()
			if !ok {
				return nil, false
			}
			it.isString = k == sfString
		}
		if !p.params(&it) {
			return nil, false
		}
		items = append(items, it)
		for p.peek() == ' ' || p.peek() == '\t' {
			p.i++
		}
		if p.i == len(p.s) {
			return items, true
		}
		if p.peek() != ',' {
			return nil, p.fail("want \",\" between list members, got %q", p.s[p.i:p.i+1])
		}
		p.i++
		for p.peek() == ' ' || p.peek() == '\t' {
			p.i++
		}
		if p.i == len(p.s) {
			return nil, p.fail("trailing comma")
		}
	}
	return items, true
}

func (p *sfParser) innerList() bool {
	p.i++ // '('
	for {
		for p.peek() == ' ' {
			p.i++
		}
		if p.peek() == ')' {
			p.i++
			return true
		}
		if _, _, ok := p.bareItem(); !ok {
			return false
		}
		if !p.params(nil) {
			return false
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return p.fail("want \" \" or \")\" in an inner list")
		}
	}
}

// params reads ";" key ["=" bare-item] parameters, recording r and t in it
// when it is not nil.
func (p *sfParser) params(it *quotaItem) bool {
	for p.peek() == ';' {
		p.i++
		for p.peek() == ' ' {
			p.i++
		}
		start := p.i
		if c := p.peek(); !('a' <= c && c <= 'z') && c != '*' {
			return p.fail("want a parameter key (lower-case letter or \"*\")")
		}
		for c := p.peek(); ('a' <= c && c <= 'z') || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*'; c = p.peek() {
			p.i++
		}
		key := p.s[start:p.i]
		k, n := sfOther, int64(0)
		if p.peek() == '=' {
			p.i++
			var ok bool
			if k, n, ok = p.bareItem(); !ok {
				return false
			}
		}
		if it == nil {
			continue
		}
		// A repeated key overrides the earlier one (RFC 9651 §4.2.3.2).
		switch key {
		case "r":
			it.hasR, it.rOK, it.r = true, k == sfInteger, n
		case "t":
			it.hasT, it.tOK, it.t = true, k == sfInteger, n
		}
	}
	return true
}

// bareItem reads one bare item and returns its kind and, for an Integer,
// its value.
func (p *sfParser) bareItem() (sfKind, int64, bool) {
	c := p.peek()
	switch {
	case c == '-' || isDigit(c):
		return p.number()
	case c == '"':
		return sfString, 0, p.str()
	case c == ':':
		return sfOther, 0, p.bytes()
	case c == '?':
		if p.i+1 < len(p.s) && (p.s[p.i+1] == '0' || p.s[p.i+1] == '1') {
			p.i += 2
			return sfOther, 0, true
		}
		return sfOther, 0, p.fail("want ?0 or ?1")
	case c == '@':
		p.i++
		k, _, ok := p.number()
		if ok && k != sfInteger {
			return sfOther, 0, p.fail("a date must be an Integer")
		}
		return sfOther, 0, ok
	case c == '%':
		return sfOther, 0, p.displayString()
	case c == '*' || ('A' <= c&^0x20 && c&^0x20 <= 'Z'):
		p.i++
		for c := p.peek(); c > ' ' && c < 0x7f && !isDelimiter(c); c = p.peek() {
			p.i++
		}
		return sfOther, 0, true
	}
	if c == 0 {
		return sfOther, 0, p.fail("want an item")
	}
	return sfOther, 0, p.fail("unexpected %q", p.s[p.i:p.i+1])
}

// isDelimiter reports the characters that end a token: the RFC 9110
// delimiters except ":" and "/", which tokens may contain.
func isDelimiter(c byte) bool {
	switch c {
	case '"', '(', ')', ',', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '{', '}':
		return true
	}
	return false
}

// number reads an Integer (at most 15 digits) or a Decimal (at most 12
// integer and 3 fractional digits).
func (p *sfParser) number() (sfKind, int64, bool) {
	neg := p.peek() == '-'
	if neg {
		p.i++
	}
	start := p.i
	var n int64
	for isDigit(p.peek()) {
		n = n*10 + int64(p.peek()-'0')
		p.i++
		if p.i-start > 15 {
			return sfOther, 0, p.fail("more than 15 digits in an Integer")
		}
	}
	if p.i == start {
		return sfOther, 0, p.fail("want a digit")
	}
	if neg {
		n = -n
	}
	if p.peek() != '.' {
		return sfInteger, n, true
	}
	if p.i-start > 12 {
		return sfOther, 0, p.fail("more than 12 integer digits in a Decimal")
	}
	p.i++
	fracStart := p.i
	for isDigit(p.peek()) {
		p.i++
	}
	if n := p.i - fracStart; n < 1 || n > 3 {
		return sfOther, 0, p.fail("a Decimal needs 1 to 3 fractional digits")
	}
	return sfOther, 0, true
}

func (p *sfParser) str() bool {
	p.i++ // opening quote
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			return true
		case c == '\\':
			if p.i >= len(p.s) || (p.s[p.i] != '"' && p.s[p.i] != '\\') {
				return p.fail("bad escape in a String")
			}
			p.i++
		case c < 0x20 || c > 0x7e:
			p.i--
			return p.fail("byte %#02x in a String", c)
		}
	}
	return p.fail("unterminated String")
}

func (p *sfParser) bytes() bool {
	p.i++ // opening colon
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == ':':
			return true
		case ('A' <= c && c <= 'Z') || ('a' <= c && c <= 'z') || isDigit(c) || c == '+' || c == '/' || c == '=':
		default:
			p.i--
			return p.fail("byte %#02x in a Byte Sequence", c)
		}
	}
	return p.fail("unterminated Byte Sequence")
}

func (p *sfParser) displayString() bool {
	if p.i+1 >= len(p.s) || p.s[p.i+1] != '"' {
		return p.fail(`want %%" to open a Display String`)
	}
	p.i += 2
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '"':
			return true
		case c == '%':
			if p.i+2 > len(p.s) || !isLowerHex(p.s[p.i]) || !isLowerHex(p.s[p.i+1]) {
				return p.fail("bad %%-escape in a Display String")
			}
			p.i += 2
		case c < 0x20 || c > 0x7e:
			p.i--
			return p.fail("byte %#02x in a Display String", c)
		}
	}
	return p.fail("unterminated Display String")
}

func isLowerHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') }

// parseRateLimit reads a RateLimit field value and returns the longest t of
// its exhausted quotas.
func parseRateLimit(value string) (time.Duration, error) {
	v := trimOWS(value)
	if v == "" {
		return 0, empty(fieldRateLimit, value)
	}
	p := &sfParser{s: v}
	items, ok := p.list()
	if !ok {
		return 0, malformed(fieldRateLimit, value, p.why+`; want a Structured Field List like "default";r=0;t=30`)
	}
	var longest int64
	exhausted, timed := false, false
	for i, it := range items {
		switch {
		case !it.isString:
			return 0, malformed(fieldRateLimit, value, fmt.Sprintf("item %d: the policy name must be a quoted String", i+1))
		case !it.hasR:
			return 0, malformed(fieldRateLimit, value, fmt.Sprintf("item %d: the r parameter is required", i+1))
		case !it.rOK || it.r < 0:
			return 0, malformed(fieldRateLimit, value, fmt.Sprintf("item %d: r must be a non-negative Integer", i+1))
		case it.hasT && (!it.tOK || it.t < 0):
			return 0, malformed(fieldRateLimit, value, fmt.Sprintf("item %d: t must be a non-negative Integer", i+1))
		}
		if it.r == 0 {
			exhausted = true
			if it.hasT {
				timed = true
				longest = max(longest, it.t)
			}
		}
	}
	switch {
	case !exhausted:
		return 0, &valueError{field: fieldRateLimit, value: value, kind: ErrNoHint, want: "no quota is exhausted (r=0)"}
	case !timed:
		return 0, &valueError{field: fieldRateLimit, value: value, kind: ErrNoHint, want: "no exhausted quota says when it resets (t)"}
	}
	// At most 15 digits: under MaxInt64/1e9 is not guaranteed, so saturate.
	if longest > int64(Forever/time.Second) {
		return Forever, nil
	}
	return time.Duration(longest) * time.Second, nil
}
