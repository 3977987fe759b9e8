package main

import (
	"strings"
	"testing"

	"github.com/retrykit/retrykit/internal/golden"
)

// TestPresetOutput pins what "go run ./examples/fleetsim -preset river"
// and "-preset asynq" print: each framework's default after the seed's
// outage, against the old policy, with its peak, drain and jobs given
// up, the horizon and bucket of the simulation, and no advice (the
// advisor searches around a retrytest.Policy). testdata/preset_*.golden
// are the outputs the README quotes from.
func TestPresetOutput(t *testing.T) {
	for _, tc := range []struct {
		preset string
		want   []string
	}{
		{"river", []string{
			"River's default (-preset river): n^4 s ±10% after the n-th error, 25 attempts\n(24 retries):\n",
			"Its 24 retries last at most 538h42m2s (22.4 days); the simulation follows every job to its end, counting the load in 1m buckets for up to 17476h16m (728 days) after recovery, policysim's 1048576 buckets.",
			"  > 9        [1h1m26.4s, 1h15m5.6s]       [2h11m34.8s, 2h40m49.2s]\n",
			"  river    PASS  at most 493 requests per minute, spread over 1h14m36s\n",
			"  jobs given up        0                  0\n",
			"advice: none for -preset river:",
		}},
		{"asynq", []string{
			"asynq's default (-preset asynq): n^4 + 15 + U{0..29}·(n+1) s for the retry\nafter n, 26 attempts (25 retries):\n",
			"Its 25 retries last at most 492h27m (20.5 days);",
			"    2        [15s, 44s]              [15s, 44s]\n",
			"  asynq    FAIL  639 requests in one minute, 1.1x what the endpoint absorbs\n",
			"  jobs given up        0                  0\n",
			"advice: none for -preset asynq:",
		}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, "-preset", tc.preset)
			if code != 0 || stderr != "" {
				t.Fatalf("run(-preset %s) = %d, stderr %q, want 0 and nothing on stderr", tc.preset, code, stderr)
			}
			golden.Check(t, "preset_"+tc.preset, stdout)
			for line := range strings.SplitSeq(stdout, "\n") {
				if len([]rune(line)) > 80 || strings.TrimRight(line, " ") != line {
					t.Errorf("line %q: over 80 columns or trailing space", line)
				}
			}
			for _, want := range tc.want {
				if !strings.Contains(stdout, want) && !strings.Contains(flat(stdout), flat(want)) {
					t.Errorf("run(-preset %s) does not print %q", tc.preset, want)
				}
			}
		})
	}
}
