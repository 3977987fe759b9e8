package retryafter_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/retryafter"
)

// BenchmarkParse measures Parse on typical values and on 1 MB values,
// which must take time linear in their length (SetBytes reports MB/s).
func BenchmarkParse(b *testing.B) {
	mb := strings.Repeat("9", 1<<20)
	for _, bc := range []struct{ name, value string }{
		{"seconds", "120"},
		{"decimal", "64.57"},
		{"IMF-fixdate", "Wed, 12 Aug 2026 09:02:00 GMT"},
		{"RFC850", "Wednesday, 12-Aug-26 09:02:00 GMT"},
		{"asctime", "Wed Aug 12 09:02:00 2026"},
		{"malformed", "NaN"},
		{"1MB-digits", mb},
		{"1MB-decimal", mb[:1<<19] + "." + mb[:1<<19-1]},
		{"1MB-digits-then-x", mb[:1<<20-1] + "x"},
		{"1MB-letters", strings.Repeat("W", 1<<20)},
		{"1MB-spaces", strings.Repeat(" ", 1<<20)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.value)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = retryafter.Parse(bc.value, t0)
			}
		})
	}
}

// BenchmarkApply measures a whole decision from a response.
func BenchmarkApply(b *testing.B) {
	p := retryafter.Limits{Options: []retryafter.Option{retryafter.WithProviders(retryafter.OpenAI)}}
	for _, bc := range []struct {
		name string
		resp *http.Response
	}{
		{"Retry-After", response(429, "Retry-After", "120")},
		{"OpenAI", response(429, "X-RateLimit-Remaining-Tokens", "0", "X-RateLimit-Reset-Tokens", "6m0s")},
		{"no-hint", response(429)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Apply(bc.resp, t0, 1)
			}
		})
	}
}
