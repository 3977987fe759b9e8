package retrytest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// CheckRetryAfterParser runs a Retry-After parser of your own against every
// Retry-After case of [retryafter.Corpus] — RFC examples, all three date
// forms, huge values that wrap (9223372036854775807), NaN, Inf, signs,
// exponents, zones other than GMT, trailing text, past dates — and returns
// nil, or an error whose text is a table of the cases it gets wrong.
//
// parse has the shape most clients use: the field value and the instant
// the response was received, returning the delay or an error meaning "no
// usable hint, use the backoff". A case is judged the way a retry loop
// would use the answer:
//
//   - a malformed or empty value must give an error; a delay, even 0, is
//     wrong (it replaces the backoff, often with a hot loop);
//   - a valid value must give no error and a delay that is never negative
//     and, after the corpus's Policy bounds (at most 5 minutes unless a case
//     says otherwise), equals the expected delay; so a parser need not
//     saturate huge values like [retryafter.Parse] does, as long as it
//     never wraps them;
//   - where RFC 9110's grammar is narrower than what lenient parsers accept
//     ("1.5", "wed, 12 aug 2026 …", a wrong weekday), either answer is
//     right;
//   - a panic is wrong, and is reported instead of crashing the test.
//
// The text starts with a one-line summary, for example
//
//	retrytest: Retry-After parser gets 15 of 69 corpus cases wrong
//	    case   value                  got    want      why
//	    RA013  "9223372036854775807"  -1s    >= 5m     MaxInt64 seconds; naive multiplication gives -1s.
//	    RA017  "-0"                   0s     an error  Sign not allowed even for zero.
//	    ...
//
// Each case is run once, in ID order, on the calling goroutine; a parser
// that never returns hangs the check.
func CheckRetryAfterParser(parse func(value string, now time.Time) (time.Duration, error)) error {
	if parse == nil {
		return fmt.Errorf("retrytest: CheckRetryAfterParser: nil parse function")
	}
	var wrong []schedfmt.GridRow
	total := 0
	for _, c := range retryafter.Corpus() {
		if c.Header != nil || c.Field != "Retry-After" {
			continue
		}
		total++
		got, panicked, err := callParser(parse, c)
		if ok, want := judgeRetryAfter(c, got, err, panicked); !ok {
			wrong = append(wrong, schedfmt.GridRow{Cells: []string{c.ID, quoteValue(c.Value), describeGot(got, err, panicked), want, c.Note}})
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	return &retryAfterParserError{wrong: wrong, total: total}
}

// AssertRetryAfterParser is [CheckRetryAfterParser] reported through
// t.Errorf. It returns whether every case passed.
func AssertRetryAfterParser(t TestingT, parse func(value string, now time.Time) (time.Duration, error)) bool {
	t.Helper()
	return report(t, CheckRetryAfterParser(parse))
}

// callParser runs parse on one case, turning a panic into a result.
func callParser(parse func(string, time.Time) (time.Duration, error), c retryafter.Case) (got time.Duration, panicked any, err error) {
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
func judgeRetryAfter(c retryafter.Case, got time.Duration, err error, panicked any) (bool, string) {
	if c.WantErr != nil {
		return panicked == nil && err != nil, "an error"
	}
	var want string
	switch c.Outcome {
	case "clamped":
		want = ">= " + schedfmt.Duration(c.Max)
	case "floored":
		want = "<= " + schedfmt.Duration(c.Min)
	default:
		want = schedfmt.Duration(c.Want)
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
	}
	return min(max(got, c.Min), c.Max) == c.Want, want
}

func describeGot(got time.Duration, err error, panicked any) string {
	switch {
	case panicked != nil:
		return "panic: " + cutText(fmt.Sprint(panicked), 40)
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

// retryAfterParserError lists the corpus cases a parser got wrong.
type retryAfterParserError struct {
	wrong []schedfmt.GridRow // case, value, got, want, why
	total int
}

func (e *retryAfterParserError) Error() string {
	tab := schedfmt.Grid{Header: []string{"case", "value", "got", "want", "why"}, Rows: e.wrong, Indent: "  "}
	return fmt.Sprintf("retrytest: Retry-After parser gets %d of %d corpus cases wrong\n%s",
		len(e.wrong), e.total, strings.TrimSuffix(tab.String(), "\n"))
}
