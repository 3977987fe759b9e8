package retryafter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Waiver excuses corpus cases from [CheckParser]: one case by ID ("RA062")
// or a whole group ("retry-after-http-date"), with the reason, which the
// report prints.
type Waiver struct {
	// Case is a case ID or a group name of [Corpus].
	Case string
	// Reason says why the parser may get these cases wrong.
	Reason string
}

// CheckParser runs a Retry-After parser of your own against every
// Retry-After case of [Corpus] — RFC examples, all three date forms, huge
// values that wrap (9223372036854775807), NaN, Inf, signs, exponents,
// zones other than GMT, trailing text, past dates — and returns nil, or an
// error whose text is a table of the cases it gets wrong.
//
// parse has the shape most clients use: the field value and the instant
// the response was received, returning the delay or an error meaning "no
// usable hint, use the backoff". A case is judged the way a retry loop
// would use the answer:
//
//   - a malformed or empty value must give an error; a delay, even 0, is
//     wrong (it replaces the backoff, often with a hot loop);
//   - a valid value must give no error and a delay that is never negative
//     and, after the case's bounds (at most 5 minutes unless a case says
//     otherwise), equals the expected delay; so a parser need not saturate
//     huge values like [Parse] does, as long as it never wraps them;
//   - where RFC 9110's grammar is narrower than what lenient parsers accept
//     ("1.5", "wed, 12 aug 2026 …", a wrong weekday), either answer is
//     right;
//   - a panic is wrong, and is reported instead of crashing the test.
//
// waive excuses cases a parser gets wrong on purpose: any parser built on
// net/http.ParseTime reads the two-digit year of RFC 850 dates with Go's
// pivot (RA062) and rejects a second of 60 (RA077):
//
//	err := retryafter.CheckParser(myParse,
//		retryafter.Waiver{Case: "RA062", Reason: "net/http.ParseTime's two-digit year"},
//		retryafter.Waiver{Case: "RA077", Reason: "net/http.ParseTime rejects second 60"})
//
// The report lists the waived cases with their reasons. A waiver that
// names no case or group, or excuses cases the parser gets right, is an
// error: drop it.
//
// The text starts with a one-line summary, for example
//
//	retryafter: parser gets 15 of 69 corpus cases wrong
//	    case   value                  got    want      why
//	    RA013  "9223372036854775807"  -1s    >= 5m     MaxInt64 seconds; naive multiplication gives -1s.
//	    RA017  "-0"                   0s     an error  Sign not allowed even for zero.
//	    ...
//
// Each case is run once, in ID order, on the calling goroutine; a parser
// that never returns hangs the check.
func CheckParser(parse func(value string, now time.Time) (time.Duration, error), waive ...Waiver) error {
	if parse == nil {
		return fmt.Errorf("retryafter: CheckParser: nil parse function")
	}
	var cases []Case
	for _, c := range Corpus() {
		if c.Header == nil && c.Field == "Retry-After" {
			cases = append(cases, c)
		}
	}
	used := make([]bool, len(waive))
	for i, w := range waive {
		if !slices.ContainsFunc(cases, func(c Case) bool { return c.ID == w.Case || c.Group == w.Case }) {
			return fmt.Errorf("retryafter: CheckParser: waiver %d names %q, which is no Retry-After case ID or group of the corpus", i+1, w.Case)
		}
		if w.Reason == "" {
			return fmt.Errorf("retryafter: CheckParser: waiver %d (%s) has no Reason, want why the parser may get it wrong", i+1, w.Case)
		}
	}
	e := &parserError{total: len(cases)}
	for _, c := range cases {
		got, panicked, err := callParser(parse, c)
		ok, want := judgeRetryAfter(c, got, err, panicked)
		if ok {
			continue
		}
		row := schedfmt.GridRow{Cells: []string{c.ID, quoteValue(c.Value), describeGot(got, err, panicked), want, c.Note}}
		if i := slices.IndexFunc(waive, func(w Waiver) bool { return w.Case == c.ID || w.Case == c.Group }); i >= 0 {
			used[i] = true
			row.Cells[4] = "waived: " + waive[i].Reason
			e.waived = append(e.waived, row)
			continue
		}
		e.wrong = append(e.wrong, row)
	}
	for i, w := range waive {
		if !used[i] {
			e.stale = append(e.stale, fmt.Sprintf("waiver %d (%s: %s) excuses no case the parser gets wrong: drop it", i+1, w.Case, w.Reason))
		}
	}
	if len(e.wrong) == 0 && len(e.stale) == 0 {
		return nil
	}
	return e
}

// Judge runs parse on the case as [CheckParser] does and returns nil, or
// an error saying what the parser gave and what the case wants: the one
// case a table of a test runs on its own (conformance.TestParser makes a
// subtest of each).
func (c Case) Judge(parse func(value string, now time.Time) (time.Duration, error)) error {
	got, panicked, err := callParser(parse, c)
	if ok, want := judgeRetryAfter(c, got, err, panicked); !ok {
		return fmt.Errorf("%s %s: got %s, want %s: %s", c.ID, quoteValue(c.Value), describeGot(got, err, panicked), want, c.Note)
	}
	return nil
}

// callParser runs parse on one case, turning a panic into a result.
func callParser(parse func(string, time.Time) (time.Duration, error), c Case) (got time.Duration, panicked any, err error) {
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
func judgeRetryAfter(c Case, got time.Duration, err error, panicked any) (bool, string) {
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

// parserError lists the corpus cases a parser got wrong, those it was
// excused from, and the waivers that excused nothing.
type parserError struct {
	wrong, waived []schedfmt.GridRow // case, value, got, want, why
	stale         []string
	total         int
}

func (e *parserError) Error() string {
	var b strings.Builder
	switch {
	case len(e.wrong) > 0:
		fmt.Fprintf(&b, "retryafter: parser gets %d of %d corpus cases wrong", len(e.wrong), e.total)
		if len(e.waived) > 0 {
			fmt.Fprintf(&b, " (and %d waived)", len(e.waived))
		}
	default:
		b.WriteString("retryafter: CheckParser: stale waivers")
	}
	for _, s := range e.stale {
		b.WriteString("\n" + s)
	}
	if rows := append(slices.Clone(e.wrong), e.waived...); len(rows) > 0 {
		tab := schedfmt.Grid{Header: []string{"case", "value", "got", "want", "why"}, Rows: rows, Indent: "  "}
		b.WriteString("\n" + strings.TrimSuffix(tab.String(), "\n"))
	}
	return b.String()
}
