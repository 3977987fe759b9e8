package schedfmt

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{1500 * time.Millisecond, "1.5s"},
		{500 * time.Millisecond, "500ms"},
		{time.Minute, "1m"},
		{90 * time.Second, "1m30s"},
		{time.Hour, "1h"},
		{90 * time.Minute, "1h30m"},
		{time.Hour + time.Second, "1h0m1s"},
		{-2 * time.Minute, "-2m"},
		{10 * time.Second, "10s"},
		{100 * time.Minute, "1h40m"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%d) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestTableGolden(t *testing.T) {
	tab := Table{Indent: "    ", Rows: []Row{
		{Attempt: "1", Delay: "0s", Want: "[0s, 0s]", Result: "503 Service Unavailable"},
		{Attempt: "2", Delay: "100ms", Want: "[50ms, 150ms]", Result: "503 Service Unavailable"},
		{Attempt: "3", Delay: "450ms", Want: "[200ms, 400ms]", Result: "ok", Marked: true, Reason: "delay 450ms outside [200ms, 400ms]"},
	}}
	want := `      attempt  delay  want            result
      1        0s     [0s, 0s]        503 Service Unavailable
      2        100ms  [50ms, 150ms]   503 Service Unavailable
    > 3        450ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
`
	if got := tab.String(); got != want {
		t.Errorf("Table.String() =\n%s\nwant\n%s", got, want)
	}
}

func TestTableHidesEmptyOptionalColumnsAndDashesEmptyCells(t *testing.T) {
	tab := Table{Rows: []Row{
		{Attempt: "1", Delay: "0s", At: "0s"},
		{Attempt: "2", At: "1s"},
	}}
	want := `  attempt  delay  at
  1        0s     0s
  2        -      1s
`
	if got := tab.String(); got != want {
		t.Errorf("Table.String() =\n%s\nwant\n%s", got, want)
	}
}

func TestTableFoldsLongRunsAwayFromTheMark(t *testing.T) {
	var rows []Row
	for i := 1; i <= 30; i++ {
		rows = append(rows, Row{Attempt: fmt.Sprint(i), Delay: "1s"})
	}
	rows[14].Marked, rows[14].Reason = true, "bad"
	got := Table{Rows: rows, FoldNote: "attempts within their windows"}.String()
	want := `  attempt  delay
  1        1s
  2        1s
  ... 10 attempts within their windows ...
  13       1s
  14       1s
> 15       1s  <-- bad
  16       1s
  17       1s
  ... 11 attempts within their windows ...
  29       1s
  30       1s
`
	if got != want {
		t.Errorf("Table.String() =\n%s\nwant\n%s", got, want)
	}
	short := Table{Rows: rows[:FoldAbove]}.String()
	if strings.Contains(short, "...") {
		t.Errorf("a table of %d rows was folded:\n%s", FoldAbove, short)
	}
}

func FuzzTable(f *testing.F) {
	f.Add("1", "0s", "", "[0s, 1s]", "ok", true, "why")
	f.Add("", "", "", "", "", false, "")
	f.Fuzz(func(t *testing.T, a, d, at, w, res string, marked bool, reason string) {
		for _, s := range []string{a, d, at, w, res, reason} {
			if strings.ContainsAny(s, "\n\r") {
				return
			}
		}
		out := Table{Rows: []Row{{Attempt: a, Delay: d, At: at, Want: w, Result: res, Marked: marked, Reason: reason}, {Attempt: "2"}}}.String()
		checkLines(t, out, 3)
	})
}

func TestHistogramGolden(t *testing.T) {
	h := Histogram{Indent: "    ", Width: 10, Bars: []Bar{
		{Label: "[0s, 5m)", Count: 0},
		{Label: "[5m, 10m)", Count: 1},
		{Label: "[10m, 15m)", Count: 50},
		{Label: "[15m, 20m]", Count: 100, Marked: true, Reason: "2x the mean"},
	}}
	want := `      bucket      count
      [0s, 5m)    0
      [5m, 10m)   1      #
      [10m, 15m)  50     #####
    > [15m, 20m]  100    ##########  <-- 2x the mean
`
	if got := h.String(); got != want {
		t.Errorf("Histogram.String() =\n%s\nwant\n%s", got, want)
	}
}

func TestHistogramEmptyAndDefaultWidth(t *testing.T) {
	got := Histogram{Bars: []Bar{{Label: "[0s, 1s]", Count: 3, Marked: true, Reason: "spike"}, {Label: "[1s, 2s]"}}}.String()
	want := "  bucket    count\n> [0s, 1s]  3      " + strings.Repeat("#", BarWidth) + "  <-- spike\n  [1s, 2s]  0\n"
	if got != want {
		t.Errorf("Histogram.String() =\n%q\nwant\n%q", got, want)
	}
	if got, want := (Histogram{}).String(), "  bucket  count\n"; got != want {
		t.Errorf("Histogram{}.String() = %q, want %q", got, want)
	}
}

func FuzzHistogram(f *testing.F) {
	f.Add("[0s, 1s)", 5, "[1s, 2s]", 0, true, "why", 3)
	f.Fuzz(func(t *testing.T, l1 string, c1 int, l2 string, c2 int, marked bool, reason string, width int) {
		for _, s := range []string{l1, l2, reason} {
			if strings.ContainsAny(s, "\n\r") {
				return
			}
		}
		if c1 < 0 || c2 < 0 || c1 > 1<<20 || c2 > 1<<20 || width > 200 {
			return
		}
		out := Histogram{Width: width, Bars: []Bar{{Label: l1, Count: c1, Marked: marked, Reason: reason}, {Label: l2, Count: c2}}}.String()
		checkLines(t, out, 3)
	})
}

func TestHistogramMarksAnEmptyBucket(t *testing.T) {
	got := Histogram{Bars: []Bar{{Label: "[0s, 1s)", Marked: true, Reason: "empty"}, {Label: "[1s, 2s]", Count: 2}}}.String()
	want := "  bucket    count\n> [0s, 1s)  0  <-- empty\n  [1s, 2s]  2      " + strings.Repeat("#", BarWidth) + "\n"
	if got != want {
		t.Errorf("Histogram.String() =\n%q\nwant\n%q", got, want)
	}
}

func TestGridGolden(t *testing.T) {
	g := Grid{Indent: "  ", Header: []string{"step", "reply", "times", "served"}, Rows: []GridRow{
		{Cells: []string{"1", "429 Too Many Requests, Retry-After: 7", "once", "1"}},
		{Cells: []string{"2", "200 OK", "once", "0"}, Marked: true, Reason: "1 unused"},
		{Cells: []string{"3", "", "always"}, Reason: "not marked, not printed"},
	}}
	want := `    step  reply                                  times   served
    1     429 Too Many Requests, Retry-After: 7  once    1
  > 2     200 OK                                 once    0  <-- 1 unused
    3     -                                      always  -
`
	if got := g.String(); got != want {
		t.Errorf("Grid.String() =\n%s\nwant\n%s", got, want)
	}
}

// TestColumnsAlignByRunes: a cell cut short with "…" (three bytes, one
// column) lines up with the others, in a Grid and in a Table.
func TestColumnsAlignByRunes(t *testing.T) {
	g := Grid{Header: []string{"value", "why"}, Rows: []GridRow{{Cells: []string{"abc…", "cut"}}, {Cells: []string{"abcd", "whole"}}}}
	want := "  value  why\n  abc…   cut\n  abcd   whole\n"
	if got := g.String(); got != want {
		t.Errorf("Grid.String() =\n%q\nwant\n%q", got, want)
	}
	tab := Table{Rows: []Row{{Attempt: "1", Delay: "0s", Want: "é", Result: "ok"}, {Attempt: "2", Delay: "1s", Want: "ab", Result: "ok"}}}
	want = "  attempt  delay  want  result\n  1        0s     é     ok\n  2        1s     ab    ok\n"
	if got := tab.String(); got != want {
		t.Errorf("Table.String() =\n%q\nwant\n%q", got, want)
	}
}

func FuzzGrid(f *testing.F) {
	f.Add("a", "b…", "", true, "why")
	f.Fuzz(func(t *testing.T, c1, c2, c3 string, marked bool, reason string) {
		for _, s := range []string{c1, c2, c3, reason} {
			if strings.ContainsAny(s, "\n\r") {
				return
			}
		}
		out := Grid{Header: []string{"x", "y", "z"}, Rows: []GridRow{{Cells: []string{c1, c2, c3}, Marked: marked, Reason: reason}, {Cells: []string{"1"}}}}.String()
		checkLines(t, out, 3)
	})
}

// checkLines fails t unless out is n lines, each ending in "\n" and none
// in a space or a tab.
func checkLines(t *testing.T, out string, n int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n || !strings.HasSuffix(out, "\n") {
		t.Fatalf("got %d lines, want %d, each ending in a newline:\n%q", len(lines), n, out)
	}
	for _, l := range lines {
		if strings.TrimRight(l, " \t") != l {
			t.Fatalf("line %q has trailing space", l)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		noun string
		want string
	}{
		{1, "attempt", "1 attempt"},
		{0, "attempt", "0 attempts"},
		{3, "retry", "3 retries"},
		{1, "retry", "1 retry"},
		{2, "delay", "2 delays"},
		{2, "key", "2 keys"},
		{-1, "wait", "-1 waits"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

func TestAttemptRow(t *testing.T) {
	for _, tc := range []struct {
		n         int
		delay, at time.Duration
		result    string
		want      Row
	}{
		{1, 0, 0, "", Row{Attempt: "1", Delay: "0s", At: "0s"}},
		{3, 1500 * time.Millisecond, 90 * time.Minute, "ok", Row{Attempt: "3", Delay: "1.5s", At: "1h30m", Result: "ok"}},
		{12, -time.Second, time.Hour, "503 Service Unavailable", Row{Attempt: "12", Delay: "-1s", At: "1h", Result: "503 Service Unavailable"}},
	} {
		if got := AttemptRow(tc.n, tc.delay, tc.at, tc.result); got != tc.want {
			t.Errorf("AttemptRow(%d, %v, %v, %q) = %+v, want %+v", tc.n, tc.delay, tc.at, tc.result, got, tc.want)
		}
	}
}
