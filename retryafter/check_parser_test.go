package retryafter_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// raNaiveParser is the Retry-After parser of go-retryablehttp v0.7.8, the
// most common shape in Go: ParseInt times a second (no overflow check, a
// sign accepted), else time.RFC1123 (any zone, one of three date forms),
// a past date giving 0.
func raNaiveParser(v string, now time.Time) (time.Duration, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, errors.New("negative")
		}
		return time.Second * time.Duration(n), nil
	}
	// ParseInLocation with UTC, not Parse, keeps the CEST row independent
	// of the machine's time zone.
	t, err := time.ParseInLocation(time.RFC1123, v, time.UTC)
	if err != nil {
		return 0, err
	}
	return max(0, t.Sub(now)), nil
}

// raFloatParser is the shape of openai-go v3.25-v3.52 and anthropic-sdk-go:
// ParseFloat, then max(0, d). NaN and Inf become a zero delay on amd64.
func raFloatParser(v string, now time.Time) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t, err := time.Parse(time.RFC1123, v)
		if err != nil {
			return 0, err
		}
		return max(0, t.Sub(now)), nil
	}
	return max(0, time.Duration(f*float64(time.Second))), nil
}

func TestCheckParserPasses(t *testing.T) {
	for name, parse := range map[string]func(string, time.Time) (time.Duration, error){
		"retryafter.Parse":       retryafter.Parse,
		"retryafter.ParseStrict": retryafter.ParseStrict,
	} {
		if err := retryafter.CheckParser(parse); err != nil {
			t.Errorf("CheckParser(%s) = %v, want nil", name, err)
		}
	}
}

// TestCheckParserNaive pins the whole report for
// go-retryablehttp's parser.
func TestCheckParserNaive(t *testing.T) {
	err := retryafter.CheckParser(raNaiveParser)
	const want = `retryafter: parser gets 15 of 69 corpus cases wrong
    case   value                                       got    want      why
    RA013  "9223372036854775807"                       -1s    >= 5m     MaxInt64 seconds; naive multiplication gives -1s.
    RA014  "99999999999999999999"                      error  >= 5m     Beyond int64: strconv.Atoi fails with ErrRange; treat as 'very long', not as malformed (malformed would mean a short fallback retry).
    RA015  "1000000000000000000000000000000000000000"  error  >= 5m     40-digit value: parse in bounded time without big-int arithmetic; saturate.
    RA017  "-0"                                        0s     an error  Sign not allowed even for zero.
    RA018  "+120"                                      2m     an error  No sign in the grammar; strconv.Atoi/ParseInt accept '+120' (go-retryablehttp, aws-sdk-go v1, azcore would return 2m).
    RA019  " 120"                                      error  2m        Leading OWS is not part of the field value (RFC 9110 §5.5); net/http strips it on the wire but values built in code may keep it.
    RA021  "\t120\t"                                   error  2m        HTAB is OWS too.
    RA053  "Wednesday, 12-Aug-26 09:02:00 GMT"         error  2m        Obsolete RFC 850 form: recipients MUST accept. time.RFC1123-only parsers (go-retryablehttp, openai-go, anthropic-sdk-go, azcore) reject it.
    RA054  "Wed Aug 12 09:02:00 2026"                  error  2m        asctime form, no zone (GMT implied).
    RA060  "Sunday, 06-Nov-94 08:49:37 GMT"            error  0s        RFC 850 example: 94 -> 1994.
    RA061  "Sun Nov  6 08:49:37 1994"                  error  0s        asctime example with space-padded day.
    RA062  "Wednesday, 01-Jan-70 00:00:00 GMT"         error  >= 5m     Two-digit year: 2070 is 43 years ahead (not >50) so RFC 9110 says 2070. Go http.ParseTime pivots at 69 and reads 1970 (delay 0). Deliberate deviation from net/http.
    RA070  "Wed, 12 Aug 2026 09:02:00 UTC"             2m     an error  Only GMT is allowed. time.Parse(time.RFC1123, ...) accepts any zone abbreviation.
    RA072  "Wed, 12 Aug 2026 11:02:00 CEST"            2h2m   an error  time.RFC1123 parsers accept this and, with an unknown abbreviation, treat 11:02 as UTC: 2h too long.
    RA077  "Wed, 12 Aug 2026 09:00:60 GMT"             error  1m        second=60 (leap second) is in the time-of-day range; normalise to 09:01:00. http.ParseTime rejects it.`
	if err == nil || err.Error() != want {
		t.Errorf("CheckParser(naive) =\n%v\nwant\n%s", err, want)
	}
}

// TestCheckParserFloat checks that the NaN/Inf bug of the float
// parsers is caught, whatever the float conversion gives on this machine.
func TestCheckParserFloat(t *testing.T) {
	err := retryafter.CheckParser(raFloatParser)
	if err == nil {
		t.Fatal("CheckParser(float) = nil, want the NaN and Inf cases")
	}
	for _, id := range []string{"RA037", "RA038", "RA039", "RA041", "RA033", "RA053", "RA054"} {
		if !strings.Contains(err.Error(), "\n    "+id+" ") {
			t.Errorf("CheckParser(float) does not list %s:\n%v", id, err)
		}
	}
}

func TestCheckParserPanics(t *testing.T) {
	err := retryafter.CheckParser(func(v string, now time.Time) (time.Duration, error) {
		if v == "nan" {
			panic("parse: NaN")
		}
		return retryafter.Parse(v, now)
	})
	const want = `retryafter: parser gets 1 of 69 corpus cases wrong
    case   value  got                want      why
    RA037  "nan"  panic: parse: NaN  an error  ParseFloat and float() are case-insensitive for nan.`
	if err == nil || err.Error() != want {
		t.Errorf("CheckParser(panicking) =\n%v\nwant\n%s", err, want)
	}
	if err := retryafter.CheckParser(nil); err == nil || err.Error() != "retryafter: CheckParser: nil parse function" {
		t.Errorf("CheckParser(nil) = %v", err)
	}
}

// httpTimeParser is a careful parser built on net/http.ParseTime: it
// passes every case but the two that ParseTime reads otherwise.
func httpTimeParser(v string, now time.Time) (time.Duration, error) {
	v = strings.Trim(v, " \t")
	if v != "" && strings.Trim(v, "0123456789") == "" {
		if len(v) > 9 {
			return retryafter.Forever, nil
		}
		n, err := strconv.Atoi(v)
		return time.Duration(n) * time.Second, err
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, err
	}
	return max(0, t.Sub(now)), nil
}

// TestCheckParserWaivers: a parser built on net/http.ParseTime waives the
// two cases that function reads otherwise, and passes; the report lists
// waived cases with their reasons; a waiver that excuses nothing, names no
// case or gives no reason is an error.
func TestCheckParserWaivers(t *testing.T) {
	twoDigit := retryafter.Waiver{Case: "RA062", Reason: "net/http.ParseTime's two-digit year"}
	leap := retryafter.Waiver{Case: "RA077", Reason: "net/http.ParseTime rejects second 60"}
	if err := retryafter.CheckParser(httpTimeParser, twoDigit, leap); err != nil {
		t.Errorf("CheckParser(ParseTime-based, both waivers) = %v, want nil", err)
	}
	const want = `retryafter: parser gets 1 of 69 corpus cases wrong (and 1 waived)
    case   value                                got    want   why
    RA077  "Wed, 12 Aug 2026 09:00:60 GMT"      error  1m     second=60 (leap second) is in the time-of-day range; normalise to 09:01:00. http.ParseTime rejects it.
    RA062  "Wednesday, 01-Jan-70 00:00:00 GMT"  0s     >= 5m  waived: net/http.ParseTime's two-digit year`
	if err := retryafter.CheckParser(httpTimeParser, twoDigit); err == nil || err.Error() != want {
		t.Errorf("CheckParser(ParseTime-based, RA062 waived) =\n%v\nwant\n%s", err, want)
	}
	group := retryafter.Waiver{Case: "retry-after-http-date", Reason: "dates are parsed elsewhere"}
	if err := retryafter.CheckParser(httpTimeParser, group); err != nil {
		t.Errorf("CheckParser(ParseTime-based, date group waived) = %v, want nil", err)
	}
	stale := retryafter.Waiver{Case: "RA001", Reason: "no reason"}
	err := retryafter.CheckParser(retryafter.Parse, stale)
	wantStale := "retryafter: CheckParser: stale waivers\nwaiver 1 (RA001: no reason) excuses no case the parser gets wrong: drop it"
	if err == nil || err.Error() != wantStale {
		t.Errorf("CheckParser(Parse, stale waiver) =\n%v\nwant\n%s", err, wantStale)
	}
	for _, tc := range []struct {
		w    retryafter.Waiver
		want string
	}{
		{retryafter.Waiver{Case: "RA999", Reason: "x"}, `retryafter: CheckParser: waiver 1 names "RA999", which is no Retry-After case ID or group of the corpus`},
		{retryafter.Waiver{Case: "openai", Reason: "x"}, `retryafter: CheckParser: waiver 1 names "openai", which is no Retry-After case ID or group of the corpus`},
		{retryafter.Waiver{Case: "RA062"}, `retryafter: CheckParser: waiver 1 (RA062) has no Reason, want why the parser may get it wrong`},
	} {
		if err := retryafter.CheckParser(retryafter.Parse, tc.w); err == nil || err.Error() != tc.want {
			t.Errorf("CheckParser(Parse, %+v) = %v, want %s", tc.w, err, tc.want)
		}
	}
}

// Case.Judge gives each case's verdict alone, as CheckParser's table
// does: nil for a right answer, the got and want for a wrong one.
func TestCaseJudge(t *testing.T) {
	var seconds retryafter.Case
	for _, c := range retryafter.Corpus() {
		if c.ID == "RA001" {
			seconds = c
		}
	}
	if err := seconds.Judge(retryafter.Parse); err != nil {
		t.Errorf("Parse on RA001: %v", err)
	}
	zero := func(string, time.Time) (time.Duration, error) { return 0, nil }
	if err := seconds.Judge(zero); err == nil || err.Error() != `RA001 "120": got 0s, want 2m: RFC example: 2 minutes.` {
		t.Errorf("a parser that returns 0 on RA001: %v", err)
	}
	boom := func(string, time.Time) (time.Duration, error) { panic("boom") }
	if err := seconds.Judge(boom); err == nil || err.Error() != `RA001 "120": got panic: boom, want 2m: RFC example: 2 minutes.` {
		t.Errorf("a parser that panics: %v", err)
	}
}
