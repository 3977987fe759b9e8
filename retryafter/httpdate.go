package retryafter

import (
	"fmt"
	"strings"
	"time"
)

// This file reads the three HTTP-date forms of RFC 9110 §5.6.7:
//
//	IMF-fixdate   Sun, 06 Nov 1994 08:49:37 GMT
//	rfc850-date   Sunday, 06-Nov-94 08:49:37 GMT
//	asctime-date  Sun Nov  6 08:49:37 1994
//
// Both modes accept a leap second (second 60, normalised to the next
// minute), apply the RFC's 50-year rule to rfc850 years and require the
// literal, case-sensitive GMT. Lenient mode also accepts what
// net/http.ParseTime accepts: day and month names in any case, a weekday
// that does not match the date, fractional seconds and an asctime day
// without its pad space.

var (
	shortDays = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays  = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	months    = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

const (
	wantIMF     = `want IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT"`
	wantRFC850  = `want an RFC 850 date like "Sunday, 06-Nov-94 08:49:37 GMT"`
	wantAsctime = `want an asctime date like "Sun Nov  6 08:49:37 1994"`
)

// dateScanner consumes an HTTP-date from left to right.
type dateScanner struct {
	s      string
	i      int
	strict bool
}

func (sc *dateScanner) lit(l string) bool {
	if strings.HasPrefix(sc.s[sc.i:], l) {
		sc.i += len(l)
		return true
	}
	return false
}

func (sc *dateScanner) word() string {
	j := sc.i
	for j < len(sc.s) && ('A' <= sc.s[j]&^0x20 && sc.s[j]&^0x20 <= 'Z') {
		j++
	}
	w := sc.s[sc.i:j]
	sc.i = j
	return w
}

// digits reads exactly n digits that are not followed by another digit.
func (sc *dateScanner) digits(n int) (int, bool) {
	if sc.i+n > len(sc.s) || (sc.i+n < len(sc.s) && isDigit(sc.s[sc.i+n])) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(sc.s[sc.i : sc.i+n]) {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	sc.i += n
	return v, true
}

func (sc *dateScanner) done() bool { return sc.i == len(sc.s) }

// name looks w up in names: exactly, or ignoring case in lenient mode. It
// returns the index, or -1 and the reason.
func (sc *dateScanner) name(w string, names []string, what string) (int, string) {
	for i, n := range names {
		if w == n {
			return i, ""
		}
	}
	for i, n := range names {
		if strings.EqualFold(w, n) {
			if sc.strict {
				return -1, fmt.Sprintf("%s %s, want %q (HTTP-date is case-sensitive)", what, quote(w), n)
			}
			return i, ""
		}
	}
	return -1, fmt.Sprintf("%s %s, want one of %s", what, quote(w), strings.Join(names, ", "))
}

// dateFields are the parts of a date before they are checked.
type dateFields struct {
	weekday          int // index into shortDays
	year, month, day int // month 1-12
	hour, min, sec   int
	nsec             time.Duration
}

// parseHTTPDate reads v, already trimmed, as an HTTP-date. ref is the
// instant that rfc850's two-digit years are read relative to. It returns
// the instant, or the reason the value is not a date.
func parseHTTPDate(v string, ref time.Time, strict bool) (time.Time, string) {
	sc := &dateScanner{s: v, strict: strict}
	w := sc.word()
	if sc.i < len(v) {
		switch {
		case v[sc.i] == ',' && len(w) == 3:
			return sc.fixdate(w, imfForm, ref)
		case v[sc.i] == ',' && len(w) > 3:
			return sc.fixdate(w, rfc850Form, ref)
		case v[sc.i] == ' ' && len(w) == 3:
			return sc.asctime(w)
		}
	}
	return time.Time{}, wantSecondsOrDate(strict)
}

func wantSecondsOrDate(strict bool) string {
	secs := `seconds (1*DIGIT ["." 1*DIGIT])`
	if strict {
		secs = "delay-seconds (1*DIGIT)"
	}
	return "want " + secs + ` or an HTTP-date (IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 or asctime)`
}

// fixdateForm is what tells an IMF-fixdate from an rfc850-date: both are
// day-name ", " day month year " " time " GMT", with different day-names,
// separators inside the date and year digits.
type fixdateForm struct {
	days       []string // shortDays or longDays
	sep        string   // between day, month and year
	yearDigits int      // 4, or 2 for rfc850's year read with the 50-year rule
	want       string
}

var (
	imfForm    = fixdateForm{days: shortDays, sep: " ", yearDigits: 4, want: wantIMF}
	rfc850Form = fixdateForm{days: longDays, sep: "-", yearDigits: 2, want: wantRFC850}
)

// fixdate reads the rest of an IMF-fixdate or an rfc850-date after its
// day-name w. ref is the instant a two-digit year is read relative to.
func (sc *dateScanner) fixdate(w string, form fixdateForm, ref time.Time) (time.Time, string) {
	var f dateFields
	var why string
	if f.weekday, why = sc.name(w, form.days, "day-name"); why != "" {
		return time.Time{}, why
	}
	var ok bool
	if !sc.lit(", ") {
		return time.Time{}, form.want
	}
	if f.day, ok = sc.digits(2); !ok {
		return time.Time{}, "day must be 2 digits, " + form.want
	}
	if !sc.lit(form.sep) {
		return time.Time{}, form.want
	}
	if f.month, why = sc.month(); why != "" {
		return time.Time{}, why
	}
	if !sc.lit(form.sep) {
		return time.Time{}, form.want
	}
	if f.year, ok = sc.digits(form.yearDigits); !ok {
		return time.Time{}, fmt.Sprintf("year must be %d digits, %s", form.yearDigits, form.want)
	}
	if !sc.lit(" ") {
		return time.Time{}, form.want
	}
	if why = sc.timeOfDay(&f); why != "" {
		return time.Time{}, why
	}
	if why = sc.gmt(); why != "" {
		return time.Time{}, why
	}
	if !sc.done() {
		return time.Time{}, fmt.Sprintf("text %s after GMT, %s", quote(sc.s[sc.i:]), form.want)
	}
	if form.yearDigits == 2 {
		f.year = fullYear(f.year, f, ref)
	}
	return sc.build(f)
}

// fullYear applies RFC 9110's rule to a two-digit year: take the century of
// ref, but a timestamp that appears to be more than 50 years in the future
// is the most recent past year with the same last two digits. (A timestamp
// 50 or more years in the past is likewise moved a century forward, so
// that every two-digit year maps into the 100 years around ref.)
func fullYear(yy int, f dateFields, ref time.Time) int {
	ref = ref.UTC()
	year := ref.Year() - ref.Year()%100 + yy
	at := func(y int) time.Time {
		return time.Date(y, time.Month(f.month), f.day, f.hour, f.min, f.sec, 0, time.UTC)
	}
	switch {
	case at(year).After(ref.AddDate(50, 0, 0)):
		year -= 100
	case !at(year).After(ref.AddDate(-50, 0, 0)):
		year += 100
	}
	return year
}

// asctime reads the rest of an asctime-date after its day-name w.
func (sc *dateScanner) asctime(w string) (time.Time, string) {
	var f dateFields
	var why string
	if f.weekday, why = sc.name(w, shortDays, "day-name"); why != "" {
		return time.Time{}, why
	}
	if !sc.lit(" ") {
		return time.Time{}, wantAsctime
	}
	if f.month, why = sc.month(); why != "" {
		return time.Time{}, why
	}
	if !sc.lit(" ") {
		return time.Time{}, wantAsctime
	}
	if why = sc.asctimeDay(&f); why != "" {
		return time.Time{}, why
	}
	if !sc.lit(" ") {
		return time.Time{}, wantAsctime
	}
	if why = sc.timeOfDay(&f); why != "" {
		return time.Time{}, why
	}
	var ok bool
	if !sc.lit(" ") {
		if sc.lit(" GMT") || sc.lit(" UTC") {
			return time.Time{}, "asctime has no zone; " + wantAsctime
		}
		return time.Time{}, wantAsctime
	}
	if f.year, ok = sc.digits(4); !ok || !sc.done() {
		return time.Time{}, "year must be 4 digits at the end, " + wantAsctime
	}
	return sc.build(f)
}

// asctimeDay reads ( 2DIGIT / ( SP DIGIT ) ); lenient mode also takes a
// single digit without the pad space, like Go's "_2".
func (sc *dateScanner) asctimeDay(f *dateFields) string {
	padded := sc.lit(" ")
	var ok bool
	if f.day, ok = sc.digits(1); ok {
		if !padded && sc.strict {
			return "a 1-digit day needs a pad space (SP DIGIT), " + wantAsctime
		}
		return ""
	}
	if f.day, ok = sc.digits(2); ok {
		if padded && sc.strict {
			return "a 2-digit day takes no pad space, " + wantAsctime
		}
		return ""
	}
	return "day must be 2 digits or SP DIGIT, " + wantAsctime
}

func (sc *dateScanner) month() (int, string) {
	m, why := sc.name(sc.word(), months, "month")
	return m + 1, why
}

// timeOfDay reads 2DIGIT ":" 2DIGIT ":" 2DIGIT, plus a fraction of a second
// in lenient mode.
func (sc *dateScanner) timeOfDay(f *dateFields) string {
	const want = "want time-of-day hh:mm:ss"
	var ok bool
	if f.hour, ok = sc.digits(2); !ok || !sc.lit(":") {
		return want
	}
	if f.min, ok = sc.digits(2); !ok || !sc.lit(":") {
		return want
	}
	if f.sec, ok = sc.digits(2); !ok {
		return want
	}
	switch {
	case f.hour > 23:
		return fmt.Sprintf("hour %02d, want 00-23", f.hour)
	case f.min > 59:
		return fmt.Sprintf("minute %02d, want 00-59", f.min)
	case f.sec > 60:
		return fmt.Sprintf("second %02d, want 00-60", f.sec)
	}
	if sc.i+1 < len(sc.s) && sc.s[sc.i] == '.' && isDigit(sc.s[sc.i+1]) {
		if sc.strict {
			return "fractional seconds are not in the HTTP-date grammar (only Parse accepts them)"
		}
		j := sc.i + 1
		for j < len(sc.s) && isDigit(sc.s[j]) {
			j++
		}
		f.nsec = fraction(sc.s[sc.i+1:j], time.Second)
		sc.i = j
	}
	return ""
}

// gmt reads " GMT", the only zone an HTTP-date may name.
func (sc *dateScanner) gmt() string {
	if sc.lit(" GMT") {
		return ""
	}
	if !sc.lit(" ") {
		return "missing zone, want GMT"
	}
	return fmt.Sprintf("zone %s, want GMT", quote(sc.s[sc.i:]))
}

// build checks the calendar date (and, in strict mode, the weekday) and
// returns the instant.
func (sc *dateScanner) build(f dateFields) (time.Time, string) {
	month := time.Month(f.month)
	if f.day < 1 || f.day > daysIn(month, f.year) {
		return time.Time{}, fmt.Sprintf("%s %04d has no day %02d", months[f.month-1], f.year, f.day)
	}
	t := time.Date(f.year, month, f.day, f.hour, f.min, f.sec, int(f.nsec), time.UTC)
	if sc.strict {
		if wd := time.Date(f.year, month, f.day, 0, 0, 0, 0, time.UTC).Weekday(); int(wd) != f.weekday {
			return time.Time{}, fmt.Sprintf("day-name %s does not match %04d-%02d-%02d, a %s", shortDays[f.weekday], f.year, f.month, f.day, wd)
		}
	}
	return t, ""
}

func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
