package retrytest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

func TestFleetLoadString(t *testing.T) {
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

func TestWriteFleetSVG(t *testing.T) {
	old := simulate(t, retrytest.Fleet{Name: "old", Jobs: 2000, Outage: 2 * time.Hour, Policy: seedOld, Seed: 7, Capacity: 100})
	fixed := simulate(t, retrytest.Fleet{Name: "fixed <&>", Jobs: 2000, Outage: 2 * time.Hour, Policy: seedFixed, Seed: 7, Capacity: 100})
	var b strings.Builder
	if err := retrytest.WriteFleetSVG(&b, old, fixed); err != nil {
		t.Fatalf("WriteFleetSVG() = %v", err)
	}
	golden.Check(t, "fleet_svg", b.String())
	if !strings.Contains(b.String(), "fixed &lt;&amp;&gt;: requests per 1m after recovery") {
		t.Errorf("WriteFleetSVG() does not escape the fleet's name")
	}

	for _, tc := range []struct {
		loads []*retrytest.FleetLoad
		want  string
	}{
		{nil, "retrytest: WriteFleetSVG: no loads to draw"},
		{[]*retrytest.FleetLoad{old, nil}, "retrytest: WriteFleetSVG: load 2 of 2 is nil"},
	} {
		if err := retrytest.WriteFleetSVG(&b, tc.loads...); err == nil || err.Error() != tc.want {
			t.Errorf("WriteFleetSVG(%v) = %v, want %s", tc.loads, err, tc.want)
		}
	}
	if err := retrytest.WriteFleetSVG(failingWriter{}, old); !errors.Is(err, errWrite) {
		t.Errorf("WriteFleetSVG(failing writer) = %v, want %v", err, errWrite)
	}
}

var errWrite = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

// TestFleetChartFits checks the text chart of loads of every shape: no
// line over 80 columns, no trailing space.
func TestFleetChartFits(t *testing.T) {
	for _, f := range []retrytest.Fleet{
		{Name: "old", Jobs: 2000, Outage: 2 * time.Hour, Policy: seedOld, Seed: 1, Capacity: 600},
		seed000("fixed", seedFixed, 1),
		{Name: "storm", Jobs: 700, Outage: 2 * time.Hour, Policy: seedOld, Seed: 1, Capacity: 600, Overload: true},
		{Jobs: 1, Policy: constant(time.Second, 2)},
		{Jobs: 5, Outage: time.Hour, AllAtOnce: true, Policy: constant(time.Minute, 3)},
		{Jobs: 1000, Outage: time.Hour, Policy: constant(1000*time.Hour, 2), Bucket: time.Hour},
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
