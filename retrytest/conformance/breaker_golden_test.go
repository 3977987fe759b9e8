package conformance

import (
	"testing"

	"github.com/retrykit/retrykit/internal/golden"
)

// The failure of each of issue 33's planted breaker bugs, as a user reads
// it: the report, and under it the calls of the failing case, the
// offending one marked.
func TestBreakerFailureText(t *testing.T) {
	for _, tc := range []struct {
		golden string
		bug    string
		cmp    composition
		client bool
	}{
		{"breaker_trips_late", "trips-late", plain, true},
		{"breaker_probe_storm", "probe-storm", plain, true},
		{"breaker_open_from_first_failure", "open-from-first-failure", plain, false},
		{"breaker_probe_failure_ignored", "probe-failure-ignored", plain, false},
		{"breaker_counts_never_reset", "counts-never-reset", plain, false},
		{"breaker_404_counted", "404-counted", plain, true},
		{"breaker_hammering", "hammering", outside, false},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			g, cl := checkBoth(t, labBreakerSpec().Breaker, tc.cmp, bugs{tc.bug: true}, false)
			r := g
			if tc.client {
				r = cl
			}
			golden.Check(t, tc.golden, r.String()+"\n")
		})
	}
}
