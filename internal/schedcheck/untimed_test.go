package schedcheck_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/recorder"
)

// untimedProvider is a provider that knows the order of its attempts but
// not their times.
type untimedProvider struct{ attemptsOnly }

// Read asks Untimed about every provider, and a schedule it calls untimed
// prints its attempts without delays or offsets, counts them as usual and
// fails every check of times with the reason.
func TestUntimed(t *testing.T) {
	const why = "no clock"
	saved := schedcheck.Untimed
	t.Cleanup(func() { schedcheck.Untimed = saved })
	schedcheck.Untimed = func(got any) string {
		if _, ok := got.(untimedProvider); ok {
			return why
		}
		return ""
	}
	attempts := []recorder.Attempt{{Index: 1, Result: "503"}, {Index: 2, At: 3 * time.Millisecond, Delay: 3 * time.Millisecond, Result: "200"}}
	if s, _ := schedcheck.Read(attempts, false); s.Untimed != "" {
		t.Errorf("Read([]Attempt).Untimed = %q, want \"\": a slice is never asked", s.Untimed)
	}
	s, err := schedcheck.Read(untimedProvider{attempts}, false)
	if err != nil || s.Untimed != why {
		t.Fatalf("Read(untimed provider) = Untimed %q, %v; want %q, nil", s.Untimed, err, why)
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
