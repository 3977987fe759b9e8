package retryafter_test

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// now is the pinned instant the examples read hints at.
var now = time.Date(2026, 8, 12, 9, 0, 0, 0, time.UTC)

func ExampleParse() {
	for _, v := range []string{"120", "1.5", "0", "9223372037"} {
		d, err := retryafter.Parse(v, now)
		fmt.Printf("%-12q %v %v\n", v, d, err)
	}
	// Output:
	// "120"        2m0s <nil>
	// "1.5"        1.5s <nil>
	// "0"          0s <nil>
	// "9223372037" 2562047h47m16.854775807s <nil>
}

// All three HTTP-date forms, measured against a pinned now; a date in the
// past means "retry now".
func ExampleParse_httpDate() {
	for _, v := range []string{
		"Wed, 12 Aug 2026 09:02:00 GMT",     // IMF-fixdate
		"Wednesday, 12-Aug-26 09:02:00 GMT", // RFC 850
		"Wed Aug 12 09:02:00 2026",          // asctime
		"Wed, 12 Aug 2026 08:59:00 GMT",     // a minute ago
	} {
		d, err := retryafter.Parse(v, now)
		fmt.Println(d, err)
	}
	// Output:
	// 2m0s <nil>
	// 2m0s <nil>
	// 2m0s <nil>
	// 0s <nil>
}

// Malformed values are errors, never a zero delay.
func ExampleParse_malformed() {
	for _, v := range []string{"NaN", "-1", "Wed, 12 Aug 2026 11:02:00 CEST"} {
		_, err := retryafter.Parse(v, now)
		fmt.Println(errors.Is(err, retryafter.ErrMalformed), err)
	}
	// Output:
	// true retryafter: Retry-After "NaN": malformed value: want seconds (1*DIGIT ["." 1*DIGIT]) or an HTTP-date (IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 or asctime)
	// true retryafter: Retry-After "-1": malformed value: a sign is not allowed, want seconds (1*DIGIT ["." 1*DIGIT]) or an HTTP-date (IMF-fixdate like "Sun, 06 Nov 1994 08:49:37 GMT", RFC 850 or asctime)
	// true retryafter: Retry-After "Wed, 12 Aug 2026 11:02:00 CEST": malformed value: zone "CEST", want GMT
}

func ExampleParseStrict() {
	_, err := retryafter.ParseStrict("1.5", now)
	fmt.Println(err)
	// Output:
	// retryafter: Retry-After "1.5": malformed value: fractional seconds, want delay-seconds (1*DIGIT); only Parse accepts decimals
}

// A provider answering "86400" during an incident must not hang the
// service for a day: the Limits clamps it to Max.
func ExampleLimits_Apply() {
	resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"86400"}}}
	p := retryafter.Limits{Max: time.Minute}
	d := p.Apply(resp, now, 1)
	fmt.Println(d.Delay, d.Clamped)
	fmt.Println(d)
	// Output:
	// 1m0s true
	// wait 1m, clamped to Max: Retry-After: "86400" (seconds) = 24h
}

// A malformed Retry-After falls back to the computed backoff, never to 0.
func ExampleLimits_Apply_malformed() {
	backoff := func(attempt int) time.Duration { return 500 * time.Millisecond << (attempt - 1) }
	p := retryafter.Limits{Fallback: backoff}
	resp := &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{"Retry-After": {"soon"}}}
	d := p.Apply(resp, now, 3)
	fmt.Println(d.Delay, d.Origin, errors.Is(d.Err, retryafter.ErrMalformed))
	// Output:
	// 2s backoff true
}

// With GiveUp, a hint above Max stops the retries instead.
func ExampleLimits_Apply_giveUp() {
	p := retryafter.Limits{Max: 2 * time.Minute, OnExceed: retryafter.GiveUp}
	resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3600"}}}
	fmt.Println(p.Apply(resp, now, 1))
	// Output:
	// give up: Retry-After: "3600" (seconds) = 1h is above Max 2m
}

// Provider reset fields are read only when asked for, and only for quotas
// that are exhausted.
func ExampleFromResponse() {
	resp := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{}}
	resp.Header.Set("X-RateLimit-Remaining-Requests", "59")
	resp.Header.Set("X-RateLimit-Reset-Requests", "1s")
	resp.Header.Set("X-RateLimit-Remaining-Tokens", "0")
	resp.Header.Set("X-RateLimit-Reset-Tokens", "6.5s")

	_, err := retryafter.FromResponse(resp, now)
	fmt.Println(err)
	h, err := retryafter.FromResponse(resp, now, retryafter.WithProviders(retryafter.OpenAI))
	fmt.Println(h, err)
	// Output:
	// retryafter: 429 Too Many Requests response carries no wait hint
	// X-RateLimit-Reset-Tokens: "6.5s" (Go duration, OpenAI) = 6.5s <nil>
}

// A test scripts a 429 in each form a client must accept.
func ExampleFormatHTTPDate() {
	at := now.Add(90 * time.Second)
	for _, f := range []retryafter.DateForm{retryafter.IMFFixdate, retryafter.RFC850, retryafter.Asctime} {
		fmt.Printf("%-11v %s\n", f, retryafter.FormatHTTPDate(at, f))
	}
	fmt.Println(retryafter.FormatSeconds(1500 * time.Millisecond))
	// Output:
	// IMF-fixdate Wed, 12 Aug 2026 09:01:30 GMT
	// RFC 850     Wednesday, 12-Aug-26 09:01:30 GMT
	// asctime     Wed Aug 12 09:01:30 2026
	// 2
}

// Google sends its hint in the JSON body; decode it yourself and let the
// Limits bound it.
func ExampleParseProtoDuration() {
	d, err := retryafter.ParseProtoDuration("22s")
	fmt.Println(retryafter.Limits{}.ApplyHint(retryafter.Hint{Delay: d, Field: "retryDelay", Value: "22s", Syntax: retryafter.SyntaxSeconds}, err, 1))
	// Output:
	// wait 22s: retryDelay: "22s" (seconds) = 22s
}

func ExampleCorpus() {
	for _, c := range retryafter.Corpus() {
		if c.ID == "RA013" || c.ID == "RA037" || c.ID == "RA053" {
			fmt.Printf("%s %-34q want %v, err %v\n", c.ID, c.Value, c.Want, c.WantErr)
		}
	}
	// Output:
	// RA013 "9223372036854775807"              want 5m0s, err <nil>
	// RA037 "nan"                              want 0s, err retryafter: malformed value
	// RA053 "Wednesday, 12-Aug-26 09:02:00 GMT" want 2m0s, err <nil>
}
