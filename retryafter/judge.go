package retryafter

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Judge runs a Retry-After parser of your own on the vector and returns
// nil, or an error saying what the parser gave and what the vector wants.
// parse has the shape most clients use: the field value and the instant
// the response was received in, returning the delay or an error meaning
// "no usable hint, use the backoff". A vector is judged the way a retry
// loop would use the answer:
//
//   - a malformed or empty value must give an error; a delay, even 0, is
//     wrong (it replaces the backoff, often with a hot loop);
//   - a valid value must give no error and exactly the delay it asks for
//     ([Vector.Raw]), up to 9,223,372,036s, the most a Duration holds;
//     above that, any delay of at least 5 minutes: a parser need not
//     saturate huge values like [Parse] does, as long as it never wraps
//     them, and one that reads 301–999999 seconds as minutes fails;
//   - where RFC 9110's grammar is narrower than what lenient parsers accept
//     ("1.5", "wed, 12 aug 2026 …", a wrong weekday), either answer is
//     right;
//   - a panic is wrong, and is reported instead of crashing the test.
//
// conformance.TestParser runs every Retry-After vector of [Corpus] this
// way, each a subtest named by its ID, with the suite's waivers.
func (c Vector) Judge(parse func(value string, now time.Time) (time.Duration, error)) error {
	return c.judge(parse, nil)
}

// JudgeClamped is [Vector.Judge] for a parser that clamps its delay to
// [min, max] itself, as [Limits] does: a valid value must give exactly its
// delay ([Vector.Raw]) clamped to [min, max]. The vector's own Limits play
// no part: the parser's bounds are the ones it applies.
func (c Vector) JudgeClamped(parse func(value string, now time.Time) (time.Duration, error), min, max time.Duration) error {
	return c.judge(parse, &[2]time.Duration{min, max})
}

func (c Vector) judge(parse func(value string, now time.Time) (time.Duration, error), clamp *[2]time.Duration) error {
	got, panicked, err := callParser(parse, c)
	if ok, want := judgeRetryAfter(c, got, err, panicked, clamp); !ok {
		return fmt.Errorf("%s %s: got %s, want %s: %s", c.ID, quoteValue(c.Value), describeGot(got, err, panicked), want, c.Note)
	}
	return nil
}

// callParser runs parse on one case, turning a panic into a result.
func callParser(parse func(string, time.Time) (time.Duration, error), c Vector) (got time.Duration, panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	got, err = parse(c.Value, c.Now)
	return got, nil, err
}

// judgeRetryAfter reports whether a parser's answer to c is right, and
// what was wanted.
func judgeRetryAfter(c Vector, got time.Duration, err error, panicked any, clamp *[2]time.Duration) (bool, string) {
	if c.WantErr != nil {
		return panicked == nil && err != nil, "an error"
	}
	exact := c.Raw
	if clamp != nil {
		exact = min(max(c.Raw, clamp[0]), clamp[1])
	}
	want := schedfmt.Duration(exact)
	beyond := clamp == nil && c.Raw == Forever
	if beyond {
		want = ">= " + schedfmt.Duration(DefaultMax)
	}
	if c.StrictWantErr != nil {
		want += " or an error"
	}
	switch {
	case panicked != nil:
		return false, want
	case err != nil:
		return c.StrictWantErr != nil, want
	case got < 0:
		return false, want
	case beyond:
		return got >= DefaultMax, want
	}
	return got == exact, want
}

func describeGot(got time.Duration, err error, panicked any) string {
	switch {
	case panicked != nil:
		return "panic: " + cutRunes(strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(fmt.Sprint(panicked)), 40)
	case err != nil:
		return "error"
	}
	return schedfmt.Duration(got)
}

// quoteValue quotes a corpus value for the table, cut short if long.
func quoteValue(v string) string {
	if len(v) > 40 {
		return strconv.Quote(cutRunes(v, 24)) + "..." + strconv.Itoa(len(v)) + " bytes"
	}
	return strconv.Quote(v)
}

// cutRunes keeps at most n runes of s, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
