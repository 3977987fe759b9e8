package retryafter_test

import (
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
)

// Fuzz seeds: every value of the corpus, plus the house-style seeds.

func seedValues() []string {
	vs := []string{"120", "0", "-1", "", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"}
	for _, c := range retryafter.Corpus() {
		if c.Header == nil {
			vs = append(vs, c.Value)
		}
	}
	return vs
}

// headerBlock writes a header as "Key: value" lines, sorted.
func headerBlock(h http.Header) string {
	var lines []string
	for k, vs := range h {
		for _, v := range vs {
			lines = append(lines, k+": "+v)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// parseBlock reads "Key: value" lines back into a header.
func parseBlock(block string) http.Header {
	h := http.Header{}
	for line := range strings.SplitSeq(block, "\n") {
		k, v, ok := strings.Cut(strings.TrimSuffix(line, "\r"), ":")
		if !ok {
			continue
		}
		h.Add(strings.TrimSpace(k), strings.TrimLeft(v, " "))
	}
	return h
}

var allProviders = []retryafter.Provider{retryafter.OpenAI, retryafter.Anthropic, retryafter.GitHub, retryafter.X, retryafter.Discord}

// providerBits turns the low bits of b into WithProviders.
func providerBits(b uint8) retryafter.Option {
	var ps []retryafter.Provider
	for i, p := range allProviders {
		if b&(1<<i) != 0 {
			ps = append(ps, p)
		}
	}
	return retryafter.WithProviders(ps...)
}

func providerMask(ps []retryafter.Provider) uint8 {
	var b uint8
	for _, p := range ps {
		for i, q := range allProviders {
			if p == q {
				b |= 1 << i
			}
		}
	}
	return b
}

// checkError checks the invariants of every error the package returns.
func checkError(t *testing.T, call string, err error) {
	t.Helper()
	if !errors.Is(err, retryafter.ErrEmpty) && !errors.Is(err, retryafter.ErrMalformed) && !errors.Is(err, retryafter.ErrNoHint) {
		t.Fatalf("%s: error %q wraps no sentinel", call, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "retryafter: ") || len(msg) > 4096 {
		t.Fatalf("%s: error text (%d bytes) must start with \"retryafter: \" and stay short: %.200q", call, len(msg), msg)
	}
}

// FuzzParse checks that Parse and ParseStrict never panic, return an error
// or a delay in [0, Forever], never both, and that strict answers are a
// subset of lenient ones.
func FuzzParse(f *testing.F) {
	for _, v := range seedValues() {
		f.Add(v, t0.Unix())
	}
	const minUnix, maxUnix = -62135596800, 253402300799 // years 0001-9999
	f.Fuzz(func(t *testing.T, value string, nowUnix int64) {
		now := time.Unix(min(max(nowUnix, minUnix), maxUnix), 0)
		d, err := retryafter.Parse(value, now)
		ds, serr := retryafter.ParseStrict(value, now)
		for _, r := range []struct {
			name string
			d    time.Duration
			err  error
		}{{"Parse", d, err}, {"ParseStrict", ds, serr}} {
			if r.err != nil {
				checkError(t, r.name, r.err)
				if r.d != 0 {
					t.Fatalf("%s(%.80q) = %v with error %v, want 0", r.name, value, r.d, r.err)
				}
			} else if r.d < 0 {
				t.Fatalf("%s(%.80q) = %v, want >= 0", r.name, value, r.d)
			}
		}
		if serr == nil && (err != nil || d != ds) {
			t.Fatalf("ParseStrict(%.80q) = %v but Parse = %v, %v", value, ds, d, err)
		}
		if v := strings.Trim(value, " \t"); v != "" && strings.Trim(v, "0123456789") == "" && serr != nil {
			t.Fatalf("ParseStrict(%.80q) = %v, want a delay for digits", value, serr)
		}
	})
}

// FuzzFromResponse checks that reading any header block with any options
// never panics and gives an error wrapping ErrNoHint or a hint with a
// non-negative delay.
func FuzzFromResponse(f *testing.F) {
	for _, c := range retryafter.Corpus() {
		mask := providerMask(c.Providers())
		if c.Header != nil {
			f.Add(c.Status, headerBlock(c.Header), mask, uint8(0))
			f.Add(c.Status, headerBlock(c.Header), mask, uint8(3))
			continue
		}
		f.Add(429, c.Field+": "+c.Value, mask, uint8(0))
	}
	f.Add(403, "X-Ratelimit-Remaining: 0\nX-Ratelimit-Reset: 1786525260\nDate: Wed, 12 Aug 2026 08:59:00 GMT", uint8(0x1f), uint8(2))
	f.Fuzz(func(t *testing.T, status int, block string, providers, flags uint8) {
		opts := []retryafter.Option{providerBits(providers)}
		if flags&1 != 0 {
			opts = append(opts, retryafter.WithStrict())
		}
		if flags&2 != 0 {
			opts = append(opts, retryafter.WithDateHeader())
		}
		if flags&4 != 0 {
			opts = append(opts, retryafter.WithStatuses())
		}
		resp := &http.Response{StatusCode: status, Header: parseBlock(block)}
		h, err := retryafter.FromResponse(resp, t0, opts...)
		if err != nil {
			checkError(t, "FromResponse", err)
			if !errors.Is(err, retryafter.ErrNoHint) {
				t.Fatalf("FromResponse = %v, want an error wrapping ErrNoHint", err)
			}
			if h != (retryafter.Hint{}) {
				t.Fatalf("FromResponse = %v with error %v, want the zero Hint", h, err)
			}
			return
		}
		if h.Delay < 0 || h.Syntax < retryafter.SyntaxSeconds || h.Syntax > retryafter.SyntaxProviderDefault || (h.Field == "") != (h.Syntax == retryafter.SyntaxProviderDefault) {
			t.Fatalf("FromResponse = %#v, want a complete hint with a delay >= 0", h)
		}
		d := retryafter.Limits{Options: opts}.Apply(resp, t0, 1)
		if d.Err != nil || d.Hint == nil || *d.Hint != h || d.Delay < 0 || d.Delay > retryafter.DefaultMax {
			t.Fatalf("Apply = %v, want the hint %v within [0, 5m]", d, h)
		}
	})
}

// FuzzPolicy checks the Limits's promises for any bounds, fallback and
// hint: the delay is within [Min, Max], above 0 whenever there is no usable
// hint, and GiveUp only for a hint above Max.
func FuzzPolicy(f *testing.F) {
	for _, v := range seedValues() {
		f.Add(v, int64(0), int64(0), int64(time.Second), uint8(0), 1)
		f.Add(v, int64(time.Second), int64(time.Minute), int64(-1), uint8(3), 4)
	}
	f.Fuzz(func(t *testing.T, value string, minNs, maxNs, fallbackNs int64, flags uint8, attempt int) {
		lo := time.Duration(uint64(minNs) % uint64(10*time.Minute))
		hi := time.Duration(uint64(maxNs) % uint64(time.Hour)) // 0 means DefaultMax
		effHi := hi
		if effHi == 0 {
			effHi = retryafter.DefaultMax
		}
		lo = min(lo, effHi)
		p := retryafter.Limits{
			Min:            lo,
			Max:            hi,
			Fallback:       func(int) time.Duration { return time.Duration(fallbackNs) },
			AtLeastBackoff: flags&2 != 0,
		}
		if flags&1 != 0 {
			p.OnExceed = retryafter.GiveUp
		}
		field := "Retry-After"
		if flags&4 != 0 {
			field = "Retry-After-Ms"
		}
		resp := &http.Response{StatusCode: 429, Header: http.Header{field: {value}}}
		d := p.Apply(resp, t0, attempt)
		switch {
		case d.Delay < lo || d.Delay > effHi:
			t.Fatalf("Apply = %v, want a delay within %s", d, schedfmt.Window(lo, effHi))
		case d.Err != nil && (d.Delay <= 0 || d.Hint != nil || d.Origin != retryafter.OriginBackoff || d.GiveUp):
			t.Fatalf("Apply = %v, want a positive backoff for error %v", d, d.Err)
		case d.Err == nil && d.Hint == nil:
			t.Fatalf("Apply = %v, want a hint or an error", d)
		case d.GiveUp && (d.Hint.Delay <= effHi || d.Delay != effHi || p.OnExceed != retryafter.GiveUp):
			t.Fatalf("Apply = %v, want GiveUp only for a hint above Max %v", d, effHi)
		case d.Err == nil && !d.GiveUp && d.Origin == retryafter.OriginHint && d.Delay != min(max(d.Hint.Delay, lo), effHi):
			t.Fatalf("Apply = %v, want the hint clamped to %s", d, schedfmt.Window(lo, effHi))
		}
	})
}

// FuzzFormatHTTPDate checks that each form reads back as the same whole
// second, for any instant in years 0001-9999 read up to 49 years later.
func FuzzFormatHTTPDate(f *testing.F) {
	f.Add(t0.Unix(), int64(0), int64(120), uint8(1))
	f.Add(int64(-62135596800), int64(999999999), int64(1), uint8(2))
	f.Add(int64(253402300799), int64(1), int64(1<<40), uint8(3))
	f.Fuzz(func(t *testing.T, unix, nsec, aheadSec int64, form uint8) {
		const minUnix, maxUnix = -62135596800 + 49*366*86400, 253402300799
		at := time.Unix(min(max(unix, minUnix), maxUnix), int64(uint64(nsec)%1e9)).UTC()
		ahead := time.Duration(uint64(aheadSec)%(49*365*86400)) * time.Second
		now := at.Truncate(time.Second).Add(-ahead)
		fm := retryafter.DateForm(form%3 + 1)
		v := retryafter.FormatHTTPDate(at, fm)
		for name, parse := range map[string]func(string, time.Time) (time.Duration, error){"Parse": retryafter.Parse, "ParseStrict": retryafter.ParseStrict} {
			if got, err := parse(v, now); err != nil || got != ahead {
				t.Fatalf("%s(%q, %v) = %v, %v, want %v", name, v, now, got, err, ahead)
			}
		}
	})
}
