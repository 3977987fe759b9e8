package retryafter_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// t0 is the instant every research vector is read at: a Wednesday.
var t0 = time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC)

// both marks a row whose answer is the same in both modes.
const (
	both = iota
	lenientOnly
	strictOnly
)

type parseCase struct {
	name    string
	value   string
	mode    int
	want    time.Duration
	wantErr error
}

var parseCases = []parseCase{
	// delay-seconds
	{name: "one second", value: "1", want: time.Second},
	{name: "largest whole seconds", value: "9223372036", want: 9223372036 * time.Second},
	{name: "one second past the range saturates", value: "9223372037", want: retryafter.Forever},
	{name: "many leading zeros do not saturate", value: strings.Repeat("0", 40) + "7", want: 7 * time.Second},
	{name: "1 MB of digits saturates", value: strings.Repeat("9", 1<<20), want: retryafter.Forever},
	{name: "non-ASCII digits", value: "١٢٠", wantErr: retryafter.ErrMalformed},
	{name: "comma decimal", value: "1,5", wantErr: retryafter.ErrMalformed},
	{name: "underscore", value: "1_000", wantErr: retryafter.ErrMalformed},
	{name: "newline is not OWS", value: "120\n", wantErr: retryafter.ErrMalformed},
	{name: "vertical tab is not OWS", value: "\v120", wantErr: retryafter.ErrMalformed},
	{name: "two dots", value: "1.2.3", wantErr: retryafter.ErrMalformed},
	{name: "tab-only is empty", value: "\t", wantErr: retryafter.ErrEmpty},

	// decimal seconds (lenient only)
	{name: "exact MaxInt64 nanoseconds", value: "9223372036.854775807", mode: lenientOnly, want: retryafter.Forever},
	{name: "1ns below the range", value: "9223372036.854775806", mode: lenientOnly, want: retryafter.Forever - 1},
	{name: "one nanosecond", value: "0.000000001", mode: lenientOnly, want: 1},
	{name: "zero below a nanosecond", value: "0.0000000000", mode: lenientOnly, want: 0},
	{name: "trailing zero below a nanosecond", value: "0.0000000010", mode: lenientOnly, want: 1},
	{name: "remainder below a nanosecond rounds up", value: "1.0000000001", mode: lenientOnly, want: time.Second + 1},
	{name: "decimal", value: "2.542", mode: lenientOnly, want: 2542 * time.Millisecond},
	{name: "decimal", value: "2.542", mode: strictOnly, wantErr: retryafter.ErrMalformed},
	{name: "decimal zero", value: "2.0", mode: strictOnly, wantErr: retryafter.ErrMalformed},

	// IMF-fixdate
	{name: "date equal to now", value: "Wed, 12 Aug 2026 09:00:00 GMT", want: 0},
	{name: "leap second at the end of the day", value: "Wed, 12 Aug 2026 23:59:60 GMT", want: 15 * time.Hour},
	{name: "leap day", value: "Tue, 29 Feb 2028 09:00:00 GMT", want: 566 * 24 * time.Hour},
	{name: "no leap day in 2027", value: "Mon, 29 Feb 2027 09:00:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "31 June", value: "Tue, 31 Jun 2026 09:00:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "day 00", value: "Wed, 00 Aug 2026 09:00:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "year 1", value: "Mon, 01 Jan 0001 00:00:00 GMT", want: 0},
	{name: "trailing OWS", value: "Wed, 12 Aug 2026 09:02:00 GMT \t", want: 2 * time.Minute},
	{name: "double space", value: "Wed,  12 Aug 2026 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "one-digit hour", value: "Wed, 12 Aug 2026 9:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "no seconds", value: "Wed, 12 Aug 2026 09:02 GMT", wantErr: retryafter.ErrMalformed},
	{name: "minute 60", value: "Wed, 12 Aug 2026 09:60:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "second 61", value: "Wed, 12 Aug 2026 09:00:61 GMT", wantErr: retryafter.ErrMalformed},
	{name: "numeric zone", value: "Wed, 12 Aug 2026 09:02:00 +0000", wantErr: retryafter.ErrMalformed},
	{name: "unknown month", value: "Wed, 12 Agu 2026 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "long day-name with IMF layout", value: "Wednesday, 12 Aug 2026 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "wrong weekday", value: "Thu, 12 Aug 2026 09:02:00 GMT", mode: lenientOnly, want: 2 * time.Minute},
	{name: "wrong weekday", value: "Thu, 12 Aug 2026 09:02:00 GMT", mode: strictOnly, wantErr: retryafter.ErrMalformed},
	{name: "upper-case names", value: "WED, 12 AUG 2026 09:02:00 GMT", mode: lenientOnly, want: 2 * time.Minute},
	{name: "upper-case names", value: "WED, 12 AUG 2026 09:02:00 GMT", mode: strictOnly, wantErr: retryafter.ErrMalformed},
	{name: "fractional seconds", value: "Wed, 12 Aug 2026 09:02:00.25 GMT", mode: lenientOnly, want: 2*time.Minute + 250*time.Millisecond},
	{name: "comma fraction", value: "Wed, 12 Aug 2026 09:02:00,25 GMT", wantErr: retryafter.ErrMalformed},

	// rfc850-date
	{name: "rfc850 upper-case", value: "WEDNESDAY, 12-AUG-26 09:02:00 GMT", mode: lenientOnly, want: 2 * time.Minute},
	{name: "rfc850 short day-name", value: "Wed, 12-Aug-26 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "rfc850 four-digit year", value: "Wednesday, 12-Aug-2026 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
	{name: "rfc850 no zone", value: "Wednesday, 12-Aug-26 09:02:00", wantErr: retryafter.ErrMalformed},

	// asctime-date
	{name: "asctime padded day", value: "Sun Aug  2 09:00:00 2026", want: 0},
	{name: "asctime 2-digit day with leading zero", value: "Sun Aug 02 09:00:00 2026", want: 0},
	{name: "asctime unpadded day", value: "Sun Aug 2 09:00:00 2026", mode: strictOnly, wantErr: retryafter.ErrMalformed},
	{name: "asctime padded 2-digit day", value: "Wed Aug  12 09:02:00 2026", mode: lenientOnly, want: 2 * time.Minute},
	{name: "asctime padded 2-digit day", value: "Wed Aug  12 09:02:00 2026", mode: strictOnly, wantErr: retryafter.ErrMalformed},
	{name: "asctime with GMT", value: "Wed Aug 12 09:02:00 GMT 2026", wantErr: retryafter.ErrMalformed},
	{name: "asctime with trailing GMT", value: "Wed Aug 12 09:02:00 2026 GMT", wantErr: retryafter.ErrMalformed},
	{name: "asctime 2-digit year", value: "Wed Aug 12 09:02:00 26", wantErr: retryafter.ErrMalformed},

	// neither
	{name: "ISO date", value: "2026-08-12", wantErr: retryafter.ErrMalformed},
	{name: "word", value: "soon", wantErr: retryafter.ErrMalformed},
	{name: "lone comma", value: ",", wantErr: retryafter.ErrMalformed},
	{name: "day-name only", value: "Wed,", wantErr: retryafter.ErrMalformed},
	{name: "minus date", value: "-Wed, 12 Aug 2026 09:02:00 GMT", wantErr: retryafter.ErrMalformed},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		for _, strict := range []bool{false, true} {
			if (strict && tc.mode == lenientOnly) || (!strict && tc.mode == strictOnly) {
				continue
			}
			parse, name := retryafter.Parse, "Parse"
			if strict {
				parse, name = retryafter.ParseStrict, "ParseStrict"
			}
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				got, err := parse(tc.value, t0)
				if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) || got != tc.want {
					t.Errorf("%s(%s, t0) = %s, %v, want %s, %v", name, short(tc.value), schedfmt.Duration(got), err, schedfmt.Duration(tc.want), tc.wantErr)
				}
				if err != nil && got != 0 {
					t.Errorf("%s(%s, t0) = %s with an error, want 0", name, short(tc.value), schedfmt.Duration(got))
				}
			})
		}
	}
}

// short quotes a test value, cut short if it is long.
func short(s string) string {
	if len(s) > 40 {
		return `"` + s[:20] + `..."`
	}
	return `"` + s + `"`
}

// TestParseFiftyYearRule checks RFC 9110's rule for two-digit years at its
// edges, relative to several nows: a date at most 50 years ahead keeps the
// current century, one more than 50 years ahead is the past century's.
func TestParseFiftyYearRule(t *testing.T) {
	nows := []time.Time{t0, time.Date(2099, 12, 31, 23, 0, 0, 0, time.UTC), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, now := range nows {
		for _, tc := range []struct {
			at   time.Time
			want time.Duration
		}{
			{now.AddDate(50, 0, 0), now.AddDate(50, 0, 0).Sub(now)},  // exactly 50 years: not "more than"
			{now.AddDate(50, 0, 0).Add(time.Second), 0},              // 50 years and a second: a century back
			{now.AddDate(-49, 0, 0), 0},                              // 49 years ago stays in the past
			{now.AddDate(0, 0, 1), 24 * time.Hour},                   // tomorrow
			{now.AddDate(-50, 0, 0), now.AddDate(50, 0, 0).Sub(now)}, // 50 years ago reads as 50 years ahead
		} {
			// The day-name was written for tc.at; after a century shift it
			// no longer matches, which only the lenient Parse overlooks.
			v := retryafter.FormatHTTPDate(tc.at, retryafter.RFC850)
			got, err := retryafter.Parse(v, now)
			if err != nil || got != tc.want {
				t.Errorf("Parse(%q, %s) = %s, %v, want %s", v, now.Format(time.RFC3339), schedfmt.Duration(got), err, schedfmt.Duration(tc.want))
			}
		}
	}
}

// TestParseStrictCenturyWeekday checks that ParseStrict checks the weekday
// against the year the 50-year rule picked.
func TestParseStrictCenturyWeekday(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    time.Duration
		wantErr error
	}{
		{"Sunday, 06-Nov-94 08:49:37 GMT", 0, nil},                                                      // 1994: a Sunday
		{"Wednesday, 01-Jan-70 00:00:00 GMT", time.Date(2070, 1, 1, 0, 0, 0, 0, time.UTC).Sub(t0), nil}, // 2070: a Wednesday
		{"Thursday, 01-Jan-70 00:00:00 GMT", 0, retryafter.ErrMalformed},                                // 1970 was a Thursday, but 70 means 2070
		{"Saturday, 06-Nov-94 08:49:37 GMT", 0, retryafter.ErrMalformed},                                // 2094 is a Saturday, but 94 means 1994
	} {
		got, err := retryafter.ParseStrict(tc.value, t0)
		if got != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("ParseStrict(%q, t0) = %s, %v, want %s, %v", tc.value, schedfmt.Duration(got), err, schedfmt.Duration(tc.want), tc.wantErr)
		}
	}
}

// TestParseNowInAnyZone checks that dates are compared as instants, not as
// wall clocks.
func TestParseNowInAnyZone(t *testing.T) {
	for _, loc := range []*time.Location{time.UTC, time.FixedZone("UTC+9", 9*3600), time.FixedZone("UTC-11", -11*3600)} {
		got, err := retryafter.Parse("Wed, 12 Aug 2026 09:02:00 GMT", t0.In(loc))
		if err != nil || got != 2*time.Minute {
			t.Errorf("Parse(date, t0 in %s) = %s, %v, want 2m", loc, schedfmt.Duration(got), err)
		}
	}
}
