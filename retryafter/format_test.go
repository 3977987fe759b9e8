package retryafter_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

func TestFormatSeconds(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0"},
		{1, "1"},
		{time.Second, "1"},
		{1500 * time.Millisecond, "2"},
		{2 * time.Second, "2"},
		{24 * time.Hour, "86400"},
		{retryafter.Forever, "9223372037"},
	} {
		if got := retryafter.FormatSeconds(tc.d); got != tc.want {
			t.Errorf("FormatSeconds(%s) = %q, want %q", schedfmt.Duration(tc.d), got, tc.want)
		}
	}
}

func TestFormatHTTPDate(t *testing.T) {
	at := time.Date(2026, 8, 12, 9, 2, 0, 999_999_999, time.FixedZone("CEST", 2*3600)) // 07:02 GMT
	for _, tc := range []struct {
		form retryafter.DateForm
		want string
	}{
		{retryafter.IMFFixdate, "Wed, 12 Aug 2026 07:02:00 GMT"},
		{retryafter.RFC850, "Wednesday, 12-Aug-26 07:02:00 GMT"},
		{retryafter.Asctime, "Wed Aug 12 07:02:00 2026"},
	} {
		if got := retryafter.FormatHTTPDate(at, tc.form); got != tc.want {
			t.Errorf("FormatHTTPDate(%v, %v) = %q, want %q", at, tc.form, got, tc.want)
		}
	}
	if got, want := retryafter.FormatHTTPDate(time.Date(2026, 8, 2, 0, 0, 0, 0, time.UTC), retryafter.Asctime), "Sun Aug  2 00:00:00 2026"; got != want {
		t.Errorf("FormatHTTPDate(2 Aug, Asctime) = %q, want %q (pad space)", got, want)
	}
}

// TestFormatRoundTrip checks that every form a test scripts is read back by
// both parsers as the same whole second.
func TestFormatRoundTrip(t *testing.T) {
	forms := []retryafter.DateForm{retryafter.IMFFixdate, retryafter.RFC850, retryafter.Asctime}
	for _, ahead := range []time.Duration{0, time.Second, 1500 * time.Millisecond, 7 * time.Second, time.Hour, 40 * 24 * time.Hour, 49 * 365 * 24 * time.Hour} {
		for _, form := range forms {
			v := retryafter.FormatHTTPDate(t0.Add(ahead), form)
			want := ahead.Truncate(time.Second)
			for _, parse := range []func(string, time.Time) (time.Duration, error){retryafter.Parse, retryafter.ParseStrict} {
				if got, err := parse(v, t0); err != nil || got != want {
					t.Errorf("Parse(FormatHTTPDate(t0+%s, %v) = %q) = %s, %v, want %s", schedfmt.Duration(ahead), form, v, schedfmt.Duration(got), err, schedfmt.Duration(want))
				}
			}
		}
		s := retryafter.FormatSeconds(ahead)
		want := (ahead + time.Second - 1).Truncate(time.Second)
		if got, err := retryafter.ParseStrict(s, t0); err != nil || got != want {
			t.Errorf("ParseStrict(FormatSeconds(%s) = %q) = %s, %v, want %s", schedfmt.Duration(ahead), s, schedfmt.Duration(got), err, schedfmt.Duration(want))
		}
	}
}

func TestFormatPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"negative seconds", func() { retryafter.FormatSeconds(-time.Second) }, "retryafter: FormatSeconds: negative duration -1s"},
		{"unknown form", func() { retryafter.FormatHTTPDate(t0, 0) }, "retryafter: FormatHTTPDate: unknown DateForm(0)"},
		{"year 10000", func() { retryafter.FormatHTTPDate(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), retryafter.IMFFixdate) }, "retryafter: FormatHTTPDate: year 10000 outside 0000-9999"},
		{"year -1", func() { retryafter.FormatHTTPDate(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), retryafter.RFC850) }, "retryafter: FormatHTTPDate: year -1 outside 0000-9999"},
	} {
		if got := panicText(tc.f); got != tc.want {
			t.Errorf("%s: panic = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{retryafter.IMFFixdate.String(), "IMF-fixdate"},
		{retryafter.RFC850.String(), "RFC 850"},
		{retryafter.Asctime.String(), "asctime"},
		{retryafter.DateForm(9).String(), "DateForm(9)"},
		{retryafter.SyntaxHTTPDate.String(), "HTTP-date"},
		{retryafter.SyntaxProviderDefault.String(), "provider default"},
		{retryafter.Syntax(0).String(), "Syntax(0)"},
		{retryafter.Discord.String(), "Discord"},
		{retryafter.Provider(-1).String(), "Provider(-1)"},
		{retryafter.OriginHint.String(), "hint"},
		{retryafter.OriginBackoff.String(), "backoff"},
		{retryafter.Origin(0).String(), "Origin(0)"},
	} {
		if tc.got != tc.want {
			t.Errorf("String() = %q, want %q", tc.got, tc.want)
		}
	}
}
