package chart_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/chart"
	"github.com/retrykit/retrykit/internal/golden"
)

func decay(n, from int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = from * (n - i) / n
	}
	return xs
}

func spikeAt(k, n int) []int {
	xs := make([]int, k+1)
	xs[k] = n
	return xs
}

var goldenCharts = []struct {
	name  string
	chart chart.Chart
}{
	{"spike", chart.Chart{Title: "old: requests per 1m after recovery", Counts: []int{11000}, Bucket: time.Minute, Capacity: 600, Span: 60}},
	{"decay", chart.Chart{Title: "fixed", Counts: decay(60, 722), Bucket: time.Minute, Capacity: 600}},
	{"capacity_above_peak", chart.Chart{Counts: []int{3, 5, 1}, Bucket: time.Second, Capacity: 600, Span: 30}},
	{"capacity_on_the_axis", chart.Chart{Counts: []int{100000, 1, 0, 2}, Bucket: time.Minute, Capacity: 1, Span: 12}},
	{"no_capacity", chart.Chart{Title: "no line", Counts: decay(30, 50), Bucket: time.Minute}},
	{"empty", chart.Chart{Title: "nothing", Bucket: time.Minute, Capacity: 10, Span: 5}},
	{"grouped_columns", chart.Chart{Counts: append(decay(100, 400), spikeAt(99, 800)...), Bucket: time.Minute, Capacity: 500}},
	{"late_peak", chart.Chart{Counts: spikeAt(62, 1234567), Bucket: time.Minute, Capacity: 1000000, Span: 64}},
}

func TestTextGolden(t *testing.T) {
	for _, tc := range goldenCharts {
		t.Run(tc.name, func(t *testing.T) {
			golden.Check(t, "text_"+tc.name, tc.chart.Text())
		})
	}
}

func TestSVGGolden(t *testing.T) {
	var b bytes.Buffer
	if err := chart.WriteSVG(&b, goldenCharts[0].chart, goldenCharts[1].chart); err != nil {
		t.Fatalf("WriteSVG() = %v", err)
	}
	golden.Check(t, "svg_side_by_side", b.String())
}

// TestSVGIsWellFormed parses the SVG of every golden chart, each alone,
// with a title that needs escaping.
func TestSVGIsWellFormed(t *testing.T) {
	for _, tc := range goldenCharts {
		c := tc.chart
		c.Title = `<"fleet" & 'co'>`
		var b bytes.Buffer
		if err := chart.WriteSVG(&b, c); err != nil {
			t.Fatalf("%s: WriteSVG() = %v", tc.name, err)
		}
		d := xml.NewDecoder(&b)
		titled := false
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: the SVG does not parse: %v", tc.name, err)
			}
			if cd, ok := tok.(xml.CharData); ok && string(cd) == c.Title {
				titled = true
			}
		}
		if !titled {
			t.Errorf("%s: the SVG has no text %q", tc.name, c.Title)
		}
	}
}

func TestWriteSVGReportsTheWriteError(t *testing.T) {
	errFull := errors.New("disk full")
	if err := chart.WriteSVG(failingWriter{errFull}, goldenCharts[0].chart); !errors.Is(err, errFull) {
		t.Errorf("WriteSVG(failing writer) = %v, want %v", err, errFull)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestTextCapacityLine checks on random series that a bar crosses the
// capacity line exactly when its column holds more than the capacity,
// however rows round, and that nothing under capacity shows above it.
func TestTextCapacityLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 500 {
		counts := make([]int, 1+rng.IntN(80))
		for k := range counts {
			counts[k] = rng.IntN(1000)
		}
		c := chart.Chart{Counts: counts, Bucket: time.Minute, Capacity: 1 + rng.IntN(1200)}
		columns := columnsOf(counts, c.Span)
		rows := plotRows(t, c.Text())
		line := -1
		for r, row := range rows {
			if row.label == strconv.Itoa(c.Capacity) {
				line = r
			}
		}
		if line < 0 {
			t.Fatalf("case %d: no row labelled %d:\n%s", i, c.Capacity, c.Text())
		}
		for r, row := range rows[:line+1] {
			for col, v := range columns {
				got := col < len(row.cells) && row.cells[col] == '#'
				if got && v <= c.Capacity {
					t.Fatalf("case %d: column %d holds %d <= capacity %d but shows a '#' on or above the line (row %d):\n%s", i, col, v, c.Capacity, r, c.Text())
				}
				if r == line && got != (v > c.Capacity) {
					t.Fatalf("case %d: column %d holds %d, capacity %d: the line shows %q:\n%s", i, col, v, c.Capacity, row.cells[col], c.Text())
				}
			}
		}
	}
}

type plotRow struct {
	label string
	cells string
}

// plotRows returns the rows of a text chart above its time axis.
func plotRows(t *testing.T, text string) []plotRow {
	t.Helper()
	var rows []plotRow
	for line := range strings.SplitSeq(text, "\n") {
		label, cells, ok := strings.Cut(line, " |")
		if !ok {
			continue
		}
		rows = append(rows, plotRow{strings.TrimSpace(label), cells})
	}
	if len(rows) < chart.Rows {
		t.Fatalf("chart has %d rows, want at least %d:\n%s", len(rows), chart.Rows, text)
	}
	return rows
}

// columnsOf groups counts into columns as the text chart does.
func columnsOf(counts []int, span int) []int {
	span = max(span, len(counts), 1)
	per := (span + chart.MaxColumns - 1) / chart.MaxColumns
	cols := make([]int, (span+per-1)/per)
	for k, n := range counts {
		cols[k/per] = max(cols[k/per], n)
	}
	return cols
}

func TestTextGroupsColumnsByTheBusiestBucket(t *testing.T) {
	counts := make([]int, 130) // 3 buckets a column, 44 columns
	counts[4] = 10
	counts[5] = 3
	c := chart.Chart{Counts: counts, Bucket: time.Second}
	rows := plotRows(t, c.Text())
	if got := rows[0].cells; got != " #" {
		t.Errorf("top row = %q, want %q: column 1 holds buckets 3 to 5, the busiest with 10", got, " #")
	}
	if !strings.Contains(c.Text(), "0s        30s       1m        1m30s") {
		t.Errorf("time axis of 3s columns:\n%s", c.Text())
	}
}

func TestLabels(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{chart.BucketLabel(0, time.Minute), "[0s, 1m)"},
		{chart.BucketLabel(59, time.Minute), "[59m, 1h)"},
		{chart.BucketLabel(3, 90*time.Second), "[4m30s, 6m)"},
		{chart.Chart{Counts: []int{1, 7, 7}, Bucket: time.Minute}.PeakLabel(), "peak 7 in [1m, 2m)"},
		{chart.Chart{Counts: []int{0, 0}, Bucket: time.Minute}.PeakLabel(), "no requests"},
		{chart.Chart{Bucket: time.Minute}.PeakLabel(), "no requests"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add([]byte{0, 200, 3}, 600, 60, int64(time.Minute))
	f.Add([]byte{}, 0, 0, int64(time.Second))
	f.Add(bytes.Repeat([]byte{255}, 300), 1, 1000, int64(time.Hour))
	f.Fuzz(func(t *testing.T, raw []byte, capacity, span int, bucket int64) {
		if capacity < 0 || capacity > 1<<40 || span < 0 || span > 1<<16 || bucket <= 0 || bucket > int64(24*time.Hour) {
			return
		}
		counts := make([]int, len(raw))
		for i, b := range raw {
			counts[i] = int(b) * int(b) * 40 // up to 2.6 million
		}
		text := chart.Chart{Title: "fuzz", Counts: counts, Bucket: time.Duration(bucket), Capacity: capacity, Span: span}.Text()
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		want := 1 + chart.Rows + 3
		if capacity > 0 {
			want++
		}
		if len(lines) != want {
			t.Fatalf("%d lines, want %d:\n%s", len(lines), want, text)
		}
		for _, l := range lines {
			if len(l) > 80 || strings.TrimRight(l, " ") != l {
				t.Fatalf("line %q: over 80 columns or trailing space", l)
			}
		}
	})
}
