package recorder_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// FuzzRecorder drives a Recorder with a script of calls and checks the
// invariants of its model: Delays holds every delay in order; attempts are
// numbered 1..n, each Delay is the sum of the delays since the previous
// attempt and each At the sum of all delays before it; the delays after the
// last attempt make up the rest of the total; and the table has one line
// per row, no trailing spaces, and the row count the model implies.
func FuzzRecorder(f *testing.F) {
	f.Add([]byte{0, 10, 0, 20, 0, 40, 0})
	f.Add([]byte{10, 10, 0, 255, 0, 1, 2, 3})
	f.Add([]byte{})
	f.Add([]byte{1, 2, 128, 129})
	f.Fuzz(func(t *testing.T, script []byte) {
		rec := recorder.New()
		var wantDelays []time.Duration
		attempts, trailing := 0, 0
		for _, b := range script {
			switch {
			case b == 0:
				rec.Attempt()
				attempts++
				trailing = 0
			case b == 1 && attempts > 0:
				rec.AttemptResult(nil)
			case b == 2 && attempts > 0:
				rec.AttemptResult(errors.New("boom"))
			default:
				// Delays from -64s to 63s, in whole seconds and odd nanoseconds.
				d := time.Duration(int8(b))*time.Second/2 + time.Duration(b%3)
				rec.Sleep(d)
				wantDelays = append(wantDelays, d)
				trailing++
			}
		}
		delays, got := rec.Delays(), rec.Attempts()
		if len(delays) != len(wantDelays) {
			t.Fatalf("len(Delays()) = %d, want %d", len(delays), len(wantDelays))
		}
		var total time.Duration
		for i, d := range delays {
			if d != wantDelays[i] {
				t.Fatalf("Delays()[%d] = %v, want %v", i, d, wantDelays[i])
			}
			total += d
		}
		if len(got) != attempts {
			t.Fatalf("len(Attempts()) = %d, want %d", len(got), attempts)
		}
		var at time.Duration
		for i, a := range got {
			at += a.Delay
			if a.Index != i+1 || a.At != at {
				t.Fatalf("Attempts()[%d] = %+v, want Index %d and At %v", i, a, i+1, at)
			}
		}
		var rest time.Duration
		for _, d := range delays[len(delays)-trailing:] {
			rest += d
		}
		if at+rest != total {
			t.Fatalf("last At %v + delays after the last attempt %v = %v, want the total %v", at, rest, at+rest, total)
		}
		out := rec.String()
		lines := strings.Split(out, "\n")
		rows := attempts
		switch {
		case attempts == 0:
			rows = len(delays)
		case trailing > 0:
			rows++
		}
		if rows == 0 && len(lines) != 1 {
			t.Fatalf("String() of an empty schedule has %d lines, want 1:\n%s", len(lines), out)
		}
		shown := 0 // the rows printed or folded, after the summary and the header
		for i, l := range lines {
			if strings.TrimRight(l, " \t") != l {
				t.Fatalf("String() line %q has trailing space", l)
			}
			if i < 2 {
				continue
			}
			var n int
			if _, err := fmt.Sscanf(l, "  ... %d rows ...", &n); err == nil {
				shown += n
			} else {
				shown++
			}
		}
		if rows > 0 && shown != rows {
			t.Fatalf("String() shows %d rows, want %d:\n%s", shown, rows, out)
		}
	})
}
