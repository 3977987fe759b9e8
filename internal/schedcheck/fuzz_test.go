package schedcheck_test

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// durations decodes b as little-endian int64s.
func durations(b []byte) []time.Duration {
	var ds []time.Duration
	for len(b) >= 8 {
		ds = append(ds, time.Duration(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return ds
}

func noTrailingSpace(t *testing.T, s string) {
	t.Helper()
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Fatalf("line %q has trailing space in\n%s", line, s)
		}
	}
}

// FuzzDelaysWithin checks DelaysWithin against a plain oracle: it passes
// exactly when the counts agree and every delay is in its window, and its
// messages never panic or end a line in a space.
func FuzzDelaysWithin(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add(make([]byte, 16), make([]byte, 32))
	f.Fuzz(func(t *testing.T, rawDelays, rawWindows []byte) {
		ds, bounds := durations(rawDelays), durations(rawWindows)
		ws := make([]schedcheck.Window, len(bounds)/2)
		for i := range ws {
			lo, hi := bounds[2*i], bounds[2*i+1]
			ws[i] = schedcheck.Window{Min: min(lo, hi), Max: max(lo, hi)}
		}
		if err := schedcheck.ValidateWindows(ws); err != nil {
			t.Fatalf("ValidateWindows(ordered windows) = %v", err)
		}
		r := schedcheck.DelaysWithin(schedcheck.FromDelays(ds), ws)
		want := len(ds) == len(ws)
		for i := range min(len(ds), len(ws)) {
			want = want && ws[i].Contains(ds[i])
		}
		if r.Passed() != want {
			t.Fatalf("DelaysWithin(%v, %v).Passed() = %v, want %v", ds, ws, r.Passed(), want)
		}
		noTrailingSpace(t, r.Body("  ", true))
		noTrailingSpace(t, r.GomegaMessage("    ", "have delays within the given windows", false))
		noTrailingSpace(t, r.GomegaMessage("    ", "have delays within the given windows", true))
	})
}

// FuzzSpread checks that Spread never panics and puts every in-range delay
// in exactly one bucket.
func FuzzSpread(f *testing.F) {
	f.Add(make([]byte, 24), int64(0), int64(time.Hour), 12, 2.0)
	f.Fuzz(func(t *testing.T, raw []byte, lo, hi int64, buckets int, ratio float64) {
		sp, err := schedcheck.NormalizeSpread(schedcheck.SpreadSpec{
			Range:    schedcheck.Window{Min: time.Duration(lo), Max: time.Duration(hi)},
			Buckets:  buckets % 1000,
			MaxRatio: ratio,
		})
		if err != nil {
			return
		}
		ds := durations(raw)
		r := schedcheck.Spread(schedcheck.FromDelays(ds), sp)
		body := r.Body("", false)
		noTrailingSpace(t, body)
		in, total := 0, 0
		for _, d := range ds {
			if sp.Range.Contains(d) {
				in++
			}
		}
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")[1:]
		if len(lines) != sp.Buckets {
			t.Fatalf("Spread drew %d buckets, want %d", len(lines), sp.Buckets)
		}
		for _, l := range lines {
			var n int
			fields := strings.Fields(strings.TrimPrefix(l, "  "))
			// The label is "[lo," "hi)" then the count.
			if _, err := fmt.Sscan(fields[2], &n); err != nil {
				t.Fatalf("bucket line %q: %v", l, err)
			}
			total += n
		}
		if total != in {
			t.Fatalf("buckets hold %d delays, want %d in range", total, in)
		}
	})
}
