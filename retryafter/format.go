package retryafter

import (
	"fmt"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// DateForm is one of the three HTTP-date forms of RFC 9110 §5.6.7.
type DateForm int

const (
	// IMFFixdate is the preferred form, the only one a server may send:
	// "Sun, 06 Nov 1994 08:49:37 GMT".
	IMFFixdate DateForm = iota + 1
	// RFC850 is the obsolete RFC 850 form with a two-digit year:
	// "Sunday, 06-Nov-94 08:49:37 GMT".
	RFC850
	// Asctime is the obsolete ANSI C asctime() form, with no zone:
	// "Sun Nov  6 08:49:37 1994".
	Asctime
)

var dateLayouts = [...]string{
	IMFFixdate: "Mon, 02 Jan 2006 15:04:05 GMT",
	RFC850:     "Monday, 02-Jan-06 15:04:05 GMT",
	Asctime:    "Mon Jan _2 15:04:05 2006",
}

var dateFormNames = [...]string{
	IMFFixdate: "IMF-fixdate",
	RFC850:     "RFC 850",
	Asctime:    "asctime",
}

// String returns the form's name, for example "IMF-fixdate".
func (f DateForm) String() string {
	if f > 0 && int(f) < len(dateFormNames) {
		return dateFormNames[f]
	}
	return fmt.Sprintf("DateForm(%d)", int(f))
}

// FormatHTTPDate formats t as an HTTP-date in form f, in GMT, so a test can
// script a response in any of the forms a client must accept:
//
//	FormatHTTPDate(t, IMFFixdate) // "Wed, 12 Aug 2026 09:02:00 GMT"
//	FormatHTTPDate(t, RFC850)     // "Wednesday, 12-Aug-26 09:02:00 GMT"
//	FormatHTTPDate(t, Asctime)    // "Wed Aug 12 09:02:00 2026"
//
// An HTTP-date has whole seconds: a fraction is dropped, as
// net/http's TimeFormat drops it. An RFC 850 date names only the last two
// digits of the year, which a reader resolves within 50 years of its own
// clock. It panics on an unknown form or a year outside 0000-9999.
func FormatHTTPDate(t time.Time, f DateForm) string {
	if f <= 0 || int(f) >= len(dateLayouts) {
		panic(fmt.Sprintf("retryafter: FormatHTTPDate: unknown %v", f))
	}
	t = t.UTC()
	if y := t.Year(); y < 0 || y > 9999 {
		panic(fmt.Sprintf("retryafter: FormatHTTPDate: year %d outside 0000-9999", y))
	}
	return t.Format(dateLayouts[f])
}

// FormatSeconds formats d as delay-seconds, the whole number of seconds a
// Retry-After field carries, rounding a fraction up so that the client
// waits at least d: 2s gives "2", 1500ms gives "2", 0 gives "0". It panics
// on a negative d, which no field can carry.
func FormatSeconds(d time.Duration) string {
	if d < 0 {
		panic("retryafter: FormatSeconds: negative duration " + schedfmt.Duration(d))
	}
	s := d / time.Second
	if d%time.Second != 0 {
		s++
	}
	return strconv.FormatInt(int64(s), 10)
}
