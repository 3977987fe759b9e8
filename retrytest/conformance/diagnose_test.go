package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/seqrand"
)

// TestDiagnosis (issue 32, point 9): a ladder that fails its windows as a
// whole, in one of the simple ways real bugs make, gets one line naming
// the pattern above its table, pinned by a golden file per pattern; a
// ladder that fits none, or a partial fit, gets none.
func TestDiagnosis(t *testing.T) {
	for bug, name := range map[string]string{
		"exponent-off-by-one": "late",
		"exponent-early":      "early",
		"unit-x1000":          "x1000",
		"unit-div1000":        "div1000",
		"no-jitter":           "no-jitter",
		"cap-on-exponent":     "cap",
	} {
		t.Run(bug, func(t *testing.T) {
			r, err := CheckLoop(labSpec(), loopOf(bugs{bug: true}), only("WaitsInWindows", "JitterFromSource", "CapReached"))
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, res := range r.Results {
				if res.Verdict == Failed && len(res.Cases) == 0 {
					lines = append(lines, res.Property+": "+firstLine(res.Message))
				}
				for _, cs := range res.Cases {
					if cs.Verdict == Failed {
						lines = append(lines, res.Property+"/"+cs.Name+": "+firstLine(cs.Message))
					}
				}
			}
			got := strings.Join(lines, "\n") + "\n"
			if !strings.Contains(got, "diagnosis: ") {
				t.Errorf("%s: no diagnosis:\n%s", bug, r)
			}
			golden.Check(t, "diagnosis_"+name, got)
		})
	}
	// No guess: a ladder that is wrong in no simple way, and one that is
	// right, get none.
	c := &config{}
	c.spec, _, _ = labSpec().normalize()
	for _, ds := range [][]int64{{100, 150, 130}, {60, 100, 200}, {100, 200, 400}} {
		var waits []time.Duration
		for _, d := range ds {
			waits = append(waits, time.Duration(d)*time.Millisecond)
		}
		if d := c.diagnose(waits, seqrand.Max()); d != "" {
			t.Errorf("waits %v: %q, want no diagnosis", waits, d)
		}
	}
}
