package conformance

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// Parser is the shape of a Retry-After parser: the field value and the
// instant the response was received in; the wait, or an error meaning "no
// usable hint, use the backoff", out.
type Parser func(value string, now time.Time) (time.Duration, error)

var errNilParse = errors.New("conformance: parse is nil; pass the parser as a func(value string, now time.Time) (time.Duration, error)")

// parserGroups names the properties of a parser after the groups of
// retryafter's corpus they hold.
var parserGroups = map[string]string{
	"retry-after-seconds":   "Seconds",
	"retry-after-http-date": "HTTPDate",
	"policy":                "Bounds",
	"multi-line":            "MultiLine",
}

// parserProps are the properties of a Retry-After parser: one per group
// of the corpus's Retry-After cases, with a case per corpus case, named by
// its ID in lowercase ("HTTPDate/ra062").
func parserProps() []property {
	var props []property
	index := map[string]int{}
	for _, cs := range retryafter.Corpus() {
		if cs.Header != nil || cs.Field != "Retry-After" {
			continue
		}
		name, ok := parserGroups[cs.Group]
		if !ok {
			name = camel(cs.Group)
		}
		i, ok := index[name]
		if !ok {
			i = len(props)
			index[name] = i
			props = append(props, property{name: name, run: func(t tb, c *config) {}})
			if cs.Group == "policy" {
				props[i].skip = skipBounds
			}
		}
		prev := props[i].run
		props[i].run = func(t tb, c *config) {
			prev(t, c)
			t.Run(strings.ToLower(cs.ID), func(t tb) {
				err := cs.Judge(c.parse)
				if c.clamp != nil {
					err = cs.JudgeClamped(c.parse, c.clamp[0], c.clamp[1])
				}
				if err != nil {
					t.Errorf("%v", err)
				}
			})
		}
	}
	return props
}

// skipBounds skips the Bounds group, whose vectors test a clamp, for a
// parser that applies none.
func skipBounds(c *config) string {
	if c.clamp == nil {
		return "its vectors test a clamp of the delay, which a bare parser does not apply: if the parser clamps, declare its bounds with Clamps(min, max)"
	}
	return ""
}

// camel turns a group's name into a property's: "multi-line" is
// "MultiLine".
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// TestParser runs a Retry-After parser against the corpus of package
// retryafter — RFC 9110's examples, the three date forms, values that
// wrap, signs, NaN, zones, whitespace, past dates — each case a subtest
// of its group's ("HTTPDate/ra062"), judged by retryafter.Vector.Judge,
// and returns the [Report]. Waive a case a parser gets wrong
// on purpose, or a whole group, as for the rest of the suite:
//
//	conformance.TestParser(t, myclient.ParseRetryAfter,
//		conformance.Waive("HTTPDate/ra062", "net/http.ParseTime reads RFC 850's two-digit year with Go's pivot"))
func TestParser(t *testing.T, parse Parser, opts ...Option) *Report {
	t.Helper()
	c, err := parserConfig(parse, opts)
	return runTest(t, c, err, parserProps())
}

// CheckParser is [TestParser] returning the [Report] instead of failing a
// t.
func CheckParser(parse Parser, opts ...Option) (*Report, error) {
	c, err := parserConfig(parse, opts)
	return runCheck(c, err, parserProps())
}

func parserConfig(parse Parser, opts []Option) (*config, error) {
	c := &config{shape: "parser"}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	c.parse = parse
	if parse == nil {
		return c, errNilParse
	}
	return c, nil
}
