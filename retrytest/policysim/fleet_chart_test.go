package policysim_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

func TestLoadString(t *testing.T) {
	l := simulate(t, seed000("fixed", seedFixed, 7))
	golden.Check(t, "fleet_load_string", l.String())
	if want := l.Summary() + "\n" + l.Chart(600); l.String() != want {
		t.Errorf("String() = %q, want Summary() + \"\\n\" + Chart(Capacity)", l.String())
	}
	with, without := l.Chart(600), l.Chart(0)
	if strings.Count(without, "\n") != strings.Count(with, "\n")-1 || strings.Contains(without, "600 |") {
		t.Errorf("Chart(0) =\n%s\nwant Chart(600) without its capacity line:\n%s", without, with)
	}
}

func TestWriteSVG(t *testing.T) {
	old := simulate(t, policysim.Fleet{Name: "old", Jobs: 2000, Outage: 2 * time.Hour, Decide: seedOld, Seed: 7, Capacity: 100})
	fixed := simulate(t, policysim.Fleet{Name: "fixed <&>", Jobs: 2000, Outage: 2 * time.Hour, Decide: seedFixed, Seed: 7, Capacity: 100})
	var b strings.Builder
	if err := policysim.WriteSVG(&b, old, fixed); err != nil {
		t.Fatalf("WriteSVG() = %v", err)
	}
	golden.Check(t, "fleet_svg", b.String())
	if !strings.Contains(b.String(), "fixed &lt;&amp;&gt;: requests per 1m after recovery") {
		t.Errorf("WriteSVG() does not escape the fleet's name")
	}

	for _, tc := range []struct {
		loads []*policysim.Load
		want  string
	}{
		{nil, "policysim: WriteSVG: no loads to draw"},
		{[]*policysim.Load{old, nil}, "policysim: WriteSVG: load 2 of 2 is nil"},
	} {
		if err := policysim.WriteSVG(&b, tc.loads...); err == nil || err.Error() != tc.want {
			t.Errorf("WriteSVG(%v) = %v, want %s", tc.loads, err, tc.want)
		}
	}
	if err := policysim.WriteSVG(failingWriter{}, old); !errors.Is(err, errWrite) {
		t.Errorf("WriteSVG(failing writer) = %v, want %v", err, errWrite)
	}
}

var errWrite = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

// TestFleetChartFits checks the text chart of loads of every shape: no
// line over 80 columns, no trailing space.
func TestFleetChartFits(t *testing.T) {
	for _, f := range []policysim.Fleet{
		{Name: "old", Jobs: 2000, Outage: 2 * time.Hour, Decide: seedOld, Seed: 1, Capacity: 600},
		seed000("fixed", seedFixed, 1),
		{Name: "storm", Jobs: 700, Outage: 2 * time.Hour, Decide: seedOld, Seed: 1, Capacity: 600, Overload: true},
		{Jobs: 1, Decide: constant(time.Second, 2)},
		{Jobs: 5, Outage: time.Hour, AllAtOnce: true, Decide: constant(time.Minute, 3)},
		{Jobs: 1000, Outage: time.Hour, Decide: constant(1000*time.Hour, 2), Bucket: time.Hour},
	} {
		l := simulate(t, f)
		for _, capacity := range []int{0, 1, l.Peak, 1_000_000} {
			for line := range strings.SplitSeq(l.Chart(capacity), "\n") {
				if len(line) > 80 || strings.TrimRight(line, " ") != line {
					t.Errorf("%s: Chart(%d) has the line %q, want at most 80 columns and no trailing space", l.Summary(), capacity, line)
				}
			}
		}
	}
}
