package schedcheck_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// A schedule its source calls untimed prints its attempts without delays
// or offsets, counts them as usual and fails every check of times with the
// reason.
func TestUntimed(t *testing.T) {
	const why = "no clock"
	s := schedcheck.Read(record{at: []time.Duration{0, 3 * time.Millisecond}, results: []string{"503", "200"}, untimed: why}, true, "record")
	if s.Untimed != why {
		t.Fatalf("Read(untimed source).Untimed = %q, want %q", s.Untimed, why)
	}
	if r := schedcheck.Attempts(s, 2); !r.Passed() {
		t.Errorf("Attempts(untimed, 2) failed: %v", r.Violations)
	}
	body := schedcheck.Attempts(s, 3).Body("", true)
	if strings.Contains(body, "3ms") || !strings.Contains(body, "1        -      503") {
		t.Errorf("the table of an untimed schedule shows times, or no \"-\" for them:\n%s", body)
	}
	for name, r := range map[string]*schedcheck.Report{
		"Delays":       schedcheck.Delays(s, []time.Duration{3 * time.Millisecond}),
		"DelaysWithin": schedcheck.DelaysWithin(s, []schedcheck.Window{{Max: time.Second}}),
		"AttemptsAt":   schedcheck.AttemptsAt(s, []time.Duration{0, 3 * time.Millisecond}),
		"TotalDelay":   schedcheck.TotalDelay(s, 3*time.Millisecond),
		"CappedAt":     schedcheck.CappedAt(s, 3*time.Millisecond),
		"Spread":       schedcheck.Spread(s, schedcheck.SpreadSpec{Range: schedcheck.Window{Max: time.Second}, Buckets: 2, MaxRatio: 2}),
	} {
		if r.Passed() || !strings.HasSuffix(r.Violations[0].Text, ": "+why) || r.MayChange() {
			t.Errorf("%s(untimed) = %v, MayChange %v; want a final violation ending in %q", name, r.Violations, r.MayChange(), why)
		}
	}
}
