package retrytest_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
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

func TestCheckRetryAfterParserPasses(t *testing.T) {
	for name, parse := range map[string]func(string, time.Time) (time.Duration, error){
		"retryafter.Parse":       retryafter.Parse,
		"retryafter.ParseStrict": retryafter.ParseStrict,
	} {
		if err := retrytest.CheckRetryAfterParser(parse); err != nil {
			t.Errorf("CheckRetryAfterParser(%s) = %v, want nil", name, err)
		}
	}
}

// TestCheckRetryAfterParserNaive pins the whole report for
// go-retryablehttp's parser.
func TestCheckRetryAfterParserNaive(t *testing.T) {
	err := retrytest.CheckRetryAfterParser(raNaiveParser)
	const want = `retrytest: Retry-After parser gets 15 of 69 corpus cases wrong
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
		t.Errorf("CheckRetryAfterParser(naive) =\n%v\nwant\n%s", err, want)
	}
}

// TestCheckRetryAfterParserFloat checks that the NaN/Inf bug of the float
// parsers is caught, whatever the float conversion gives on this machine.
func TestCheckRetryAfterParserFloat(t *testing.T) {
	err := retrytest.CheckRetryAfterParser(raFloatParser)
	if err == nil {
		t.Fatal("CheckRetryAfterParser(float) = nil, want the NaN and Inf cases")
	}
	for _, id := range []string{"RA037", "RA038", "RA039", "RA041", "RA033", "RA053", "RA054"} {
		if !strings.Contains(err.Error(), "\n    "+id+" ") {
			t.Errorf("CheckRetryAfterParser(float) does not list %s:\n%v", id, err)
		}
	}
}

func TestCheckRetryAfterParserPanics(t *testing.T) {
	err := retrytest.CheckRetryAfterParser(func(v string, now time.Time) (time.Duration, error) {
		if v == "nan" {
			panic("parse: NaN")
		}
		return retryafter.Parse(v, now)
	})
	const want = `retrytest: Retry-After parser gets 1 of 69 corpus cases wrong
    case   value  got                want      why
    RA037  "nan"  panic: parse: NaN  an error  ParseFloat and float() are case-insensitive for nan.`
	if err == nil || err.Error() != want {
		t.Errorf("CheckRetryAfterParser(panicking) =\n%v\nwant\n%s", err, want)
	}
	if err := retrytest.CheckRetryAfterParser(nil); err == nil || err.Error() != "retrytest: CheckRetryAfterParser: nil parse function" {
		t.Errorf("CheckRetryAfterParser(nil) = %v", err)
	}
}

// raT records what an Assert function reports.
type raT struct{ errors []string }

func (*raT) Helper() {}
func (r *raT) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (*raT) FailNow() { panic("FailNow called") }

func TestAssertRetryAfterParser(t *testing.T) {
	var ok raT
	if !retrytest.AssertRetryAfterParser(&ok, retryafter.Parse) || len(ok.errors) != 0 {
		t.Errorf("AssertRetryAfterParser(Parse) reported %q", ok.errors)
	}
	var bad raT
	zero := func(string, time.Time) (time.Duration, error) { return 0, nil }
	if retrytest.AssertRetryAfterParser(&bad, zero) || len(bad.errors) != 1 {
		t.Fatalf("AssertRetryAfterParser(always 0) reported %q, want one error", bad.errors)
	}
	if want := retrytest.CheckRetryAfterParser(zero).Error(); bad.errors[0] != want {
		t.Errorf("AssertRetryAfterParser reported\n%s\nwant the Check text\n%s", bad.errors[0], want)
	}
}
