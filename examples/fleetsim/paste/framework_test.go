package paste_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/fleetsim/paste"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// seed is seed 000's policy: 5s doubling under a one-hour cap, full
// jitter, 13 attempts.
var seed = retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}

// The pastes of seed 000's policy, whole: the nested module examples/jobs
// compiles a copy of each (riverjobs/advised_test.go,
// asynqjobs/advised_test.go holds fleetsim's asynq advice) and runs it
// through conformance.TestPolicy against the policy.
func TestSeedPastes(t *testing.T) {
	for name, write := range map[string]func(retrytest.Policy) (string, error){"river_seed": paste.River, "asynq_seed": paste.Asynq} {
		code, err := write(seed)
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name, code)
	}
}

// Each field of the Policy is one statement of the delay, in the order
// Policy.Decide applies them, and its comment says which.
func TestDelayStatements(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	for _, tc := range []struct {
		p    retrytest.Policy
		want []string
	}{
		{seed, []string{
			"\t// The ceiling: 5s·2^n, at most the 1h cap.\n\tc := time.Hour\n\tf := float64(5*time.Second) * math.Pow(2, float64(n))\n\tif f < float64(c) {\n\t\tc = time.Duration(f)\n\t}\n",
			"\t// Full jitter: [0, c].\n\td := rand.N(c + 1)\n",
		}},
		{retrytest.Policy{First: 100 * ms, Growth: 1.5, Jitter: retrytest.EqualJitter, OpenTop: true, Attempts: 5}, []string{
			"\t// The ceiling: 100ms·1.5^n.\n\tf := float64(100*time.Millisecond) * math.Pow(1.5, float64(n))\n\tc := time.Duration(f)\n",
			"\t// Equal jitter: [c/2, c).\n\td := c/2 + rand.N(c-c/2)\n",
		}},
		{retrytest.Policy{First: s, Growth: 1, Jitter: retrytest.EqualJitter, Attempts: 5}, []string{
			"\t// The ceiling: 1s.\n\tc := time.Second\n",
			"\t// Equal jitter: [c/2, c].\n\td := c/2 + rand.N(c-c/2+1)\n",
		}},
		{retrytest.Policy{First: 2 * s, Growth: 3, FirstExponent: 1, Cap: time.Minute, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, Attempts: 5}, []string{
			"\t// The ceiling: 2s·3^(n+1), at most the 1m cap.\n\tc := time.Minute\n\tf := float64(2*time.Second) * math.Pow(3, float64(n+1))\n\tif f < float64(c) {\n",
			"\t// Jitter ±10%: [c·(1-0.1), c·(1+0.1)].\n\td := time.Duration(float64(c) * (1 + 0.1*(2*rand.Float64()-1)))\n",
		}},
		{retrytest.Policy{First: 15 * s, Growth: 3, Cap: time.Hour, Jitter: retrytest.StepJitter, JitterAmount: 29 * s, Attempts: 26}, []string{
			"\t// Jitter up to 29s a retry: [c, c+(n+1)·29s].\n\td := c + rand.N(time.Duration(n+1)*29*time.Second+1)\n",
		}},
		{retrytest.Policy{First: s, Cap: 20 * s, CapAfterJitter: true, Jitter: retrytest.FullJitter, Floor: 300 * ms, Attempts: 8}, []string{
			"\t// The ceiling: 1s·2^n.\n\tf := float64(time.Second) * math.Pow(2, float64(n))\n\tc := time.Duration(f)\n",
			"\td := rand.N(c + 1)\n\t// The 20s cap, after the jitter.\n\td = min(d, 20*time.Second)\n\t// The 300ms floor.\n\td = max(d, 300*time.Millisecond)\n",
		}},
		{retrytest.Policy{First: time.Minute, Growth: 1, Cap: 30 * s, Attempts: 3}, []string{
			"\t// The ceiling: the 30s cap.\n\tc := 30 * time.Second\n\t// No jitter.\n\td := c\n",
		}},
	} {
		for name, write := range map[string]func(retrytest.Policy) (string, error){"River": paste.River, "Asynq": paste.Asynq} {
			code, err := write(tc.p)
			if err != nil {
				t.Fatalf("%s(%v): %v", name, tc.p, err)
			}
			for _, want := range tc.want {
				if !strings.Contains(code, want) {
					t.Errorf("%s(%v) does not hold\n%s\nin\n%s", name, tc.p, want, code)
				}
			}
			for line := range strings.SplitSeq(code, "\n") {
				if n := len([]rune(strings.ReplaceAll(line, "\t", "    "))); n > 80 {
					t.Errorf("%s(%v): a line of %d columns: %q", name, tc.p, n, line)
				}
			}
		}
	}
}

// A policy the paste cannot write is an error naming what it lacks, never
// code that draws another policy.
func TestPasteRefuses(t *testing.T) {
	const s = time.Second
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{Ceilings: []time.Duration{s, 16 * s}, Attempts: 3}, "for a table of ceilings"},
		{retrytest.Policy{First: s, Growth: 10, Attempts: 40}, "past the longest time.Duration, want a Cap on the ceiling"},
		{retrytest.Policy{First: s, Jitter: retrytest.DownJitter, JitterFactor: 0.25, Attempts: 3}, "its jitter, down"},
		{retrytest.Policy{First: s, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 3}, "a factor jitter with its top left out"},
		{retrytest.Policy{First: s, Jitter: retrytest.StepJitter, JitterAmount: s, OpenTop: true, Attempts: 3}, "a step jitter with its top left out"},
		{retrytest.Policy{First: s, Attempts: 1}, "want First > 0s and 2 attempts or more"},
		{retrytest.Policy{First: -s, Attempts: 3}, "for an invalid policy"},
	} {
		for name, write := range map[string]func(retrytest.Policy) (string, error){"River": paste.River, "Asynq": paste.Asynq} {
			code, err := write(tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || code != "" {
				t.Errorf("%s(%v) = %q, %v; want no code and an error saying %q", name, tc.p, code, err, tc.want)
			}
			if err != nil && !errors.Is(err, paste.ErrPaste) {
				t.Errorf("%s(%v): %v does not wrap ErrPaste", name, tc.p, err)
			}
		}
	}
}
