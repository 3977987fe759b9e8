package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestDefaultOutput pins what "go run ./examples/fleetsim" prints: seed
// 000's scenario, old policy against fixed against advised, ending with
// the advised policy as Go. testdata/default.golden is the text the
// README quotes.
func TestDefaultOutput(t *testing.T) {
	code, stdout, stderr := runArgs(t)
	if code != 0 || stderr != "" {
		t.Fatalf("run() = %d, stderr %q, want 0 and nothing on stderr", code, stderr)
	}
	golden.Check(t, "default", stdout)
	for line := range strings.SplitSeq(stdout, "\n") {
		if len(line) > 80 || strings.TrimRight(line, " ") != line {
			t.Errorf("line %q: over 80 columns or trailing space", line)
		}
	}
	for _, want := range []string{
		"  old      FAIL  11000 requests in one minute, 18.3x what the endpoint absorbs\n",
		"  fixed    FAIL  710 requests in one minute, 1.2x what the endpoint absorbs\n",
		"  advised  PASS  at most 525 requests per minute, spread over 58m55s\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run() does not print the verdict %q", want)
		}
	}
}

// TestBadFlags checks that every bad flag is named on stderr, followed by
// the usage, with exit status 2 and nothing on stdout.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the first line on stderr
	}{
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"-jobs", "many"}, `invalid value "many" for flag -jobs: parse error`},
		{[]string{"-outage", "2"}, `invalid value "2" for flag -outage: parse error`},
		{[]string{"extra"}, `fleetsim: unexpected argument "extra", want only flags`},
		{[]string{"-jobs", "0"}, "fleetsim: -jobs 0, want 1 to 10000000"},
		{[]string{"-outage", "-1h"}, "fleetsim: -outage -1h, want a duration >= 0s"},
		{[]string{"-capacity", "0"}, "fleetsim: -capacity 0, want > 0"},
		{[]string{"-bucket", "0s"}, "fleetsim: -bucket 0s, want a duration > 0s"},
		{[]string{"-base", "0s"}, "fleetsim: -base 0s, want a delay > 0s"},
		{[]string{"-factor", "0.5"}, "fleetsim: -factor 0.5, want a number from 1 to 1000"},
		{[]string{"-factor", "NaN"}, "fleetsim: -factor NaN, want a number from 1 to 1000"},
		{[]string{"-cap", "-1m"}, "fleetsim: -cap -1m, want a delay >= 0s (0 means no cap)"},
		{[]string{"-attempts", "0"}, "fleetsim: -attempts 0, want 1 to 10000 (the first call counts)"},
		{[]string{"-jitter", "half"}, `fleetsim: -jitter "half", want one of ["none" "full" "equal" "added"]`},
		{[]string{"-jitter-max", "-5s"}, "fleetsim: -jitter-max -5s, want a delay >= 0s"},
		{[]string{"-keep", "cap,base,growth"}, `invalid value "cap,base,growth" for flag -keep: "growth" is not a dimension, want some of base, factor, cap, jitter, attempts`},
		{[]string{"-max-gave-up", "some"}, `invalid value "some" for flag -max-gave-up: "some", want a number of jobs >= 0 or a share such as 1%`},
		{[]string{"-max-gave-up", "-1"}, `invalid value "-1" for flag -max-gave-up: "-1", want a number of jobs >= 0 or a share such as 1%`},
		{[]string{"-max-gave-up", "base"}, `invalid value "base" for flag -max-gave-up: "base" is no longer a limit (fixed itself may give up on most of its jobs), want a number of jobs >= 0 or a share such as 1%`},
		{[]string{"-preset", "celery"}, `fleetsim: -preset "celery", want one of ["river" "asynq"]`},
		{[]string{"-preset", "river", "-cap", "2h", "-keep", "cap"}, `fleetsim: -preset river replaces the fixed policy, which -cap, -keep set; leave them out`},
		{[]string{"-max-gave-up", "120%"}, `invalid value "120%" for flag -max-gave-up: "120%", want a share from 0% to 100%`},
		{[]string{"-breakers", "-1"}, "fleetsim: -breakers -1, want 1 to -jobs (11000) clients, or 0 for none"},
		{[]string{"-jobs", "50", "-breakers", "51"}, "fleetsim: -breakers 51, want 1 to -jobs (50) clients, or 0 for none"},
		{[]string{"-breakers", "10", "-overload"}, "fleetsim: -breakers with -overload: an overloaded endpoint is not simulated with breakers"},
	} {
		code, stdout, stderr := runArgs(t, tc.args...)
		first, rest, _ := strings.Cut(stderr, "\n")
		if code != 2 || stdout != "" || first != tc.want || !strings.HasPrefix(rest, "usage: fleetsim [flags]\n") {
			t.Errorf("run(%q) = %d, stdout %q, stderr\n%s\nwant 2, no stdout, %q and the usage on stderr", tc.args, code, stdout, stderr, tc.want)
		}
	}
}

// TestBreakersOutput pins what "go run ./examples/fleetsim -breakers 100"
// prints: the default output, then the loads again with the jobs split
// over 100 clients, each with sony/gobreaker's default breaker, the
// requests during the outage cut to a trickle of probes.
func TestBreakersOutput(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-breakers", "100")
	if code != 0 || stderr != "" {
		t.Fatalf("run(-breakers 100) = %d, stderr %q, want 0 and nothing on stderr", code, stderr)
	}
	golden.Check(t, "breakers", stdout)
	_, def, _ := runArgs(t)
	if !strings.HasPrefix(stdout, def) {
		t.Fatal("-breakers 100 does not begin with the default output")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if extra := strings.TrimPrefix(stdout[len(def):], "\n"); !strings.Contains(string(readme), "```\n"+extra+"```\n") {
		t.Errorf("README.md does not show what -breakers 100 adds to the default output verbatim; copy it from testdata/breakers.golden")
	}
	for line := range strings.SplitSeq(stdout, "\n") {
		if len(line) > 80 || strings.TrimRight(line, " ") != line {
			t.Errorf("line %q: over 80 columns or trailing space", line)
		}
	}
	for _, want := range []string{
		"  old      without  696423           11000 in [0s, 1m)  0         -\n",
		"           with     12015            5684 in [0s, 1m)   0         689779\n",
		"  fixed    without  119652           710 in [0s, 1m)    2022      -\n",
		"           with     11072            552 in [1m, 2m)    2057      108974\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run(-breakers 100) does not print the row %q", want)
		}
	}
}

func TestUsage(t *testing.T) {
	code, stdout, stderr := runArgs(t, "-h")
	if code != 0 || stdout != "" {
		t.Errorf("run(-h) = %d, stdout %q, want 0 and the usage on stderr", code, stdout)
	}
	golden.Check(t, "usage", stderr)
}

// TestFlags runs small scenarios through each flag and checks that the
// output says what the flags asked for.
func TestFlags(t *testing.T) {
	small := []string{"-jobs", "300", "-outage", "30m", "-capacity", "50"}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{
			"300 jobs retry through a 30m outage, their first failures spread over it (seed 7).",
			"fixed: 5s doubling, full jitter under a 1h cap, 13 attempts (12 retries):",
		}},
		{[]string{"-together", "-seed", "3"}, []string{"all of them failing at its start (seed 3)"}},
		{[]string{"-overload"}, []string{"fails every request of a minute that receives more", "buckets overloaded"}},
		{[]string{"-bucket", "90s"}, []string{"absorbs 50 requests per 1m30s bucket", "requests per 1m30s after recovery", "in one 1m30s bucket"}},
		{[]string{"-base", "1s", "-factor", "3", "-cap", "0", "-attempts", "2", "-jitter", "equal"},
			[]string{"fixed: 1s x3, equal jitter, no cap, 2 attempts (1 retry):", "    2        [500ms, 1s]  [500ms, 1s]\n"}},
		{[]string{"-jitter", "none", "-cap", "20s", "-attempts", "4"},
			[]string{"fixed: 5s doubling, no jitter, capped at 20s, 4 attempts (3 retries):", "  > 4        20s    35s  <-- the cap is reached\n"}},
		{[]string{"-jitter", "added", "-jitter-max", "1s", "-cap", "0", "-attempts", "3"},
			[]string{"fixed: 5s doubling, jitter [0s, 1s] added, no cap, 3 attempts (2 retries):", "    3        [10s, 11s]  [15s, 17s]\n"}},
		// At 30 requests a minute the fixed policy fails (peak 44), and
		// the advisor has something to say.
		{[]string{"-capacity", "30"}, []string{
			"advised  PASS  at most 27 requests per minute",
			"give up on at most 3 jobs (1%)",
			"  1. -factor 3           peak 27, drained after 55m6s, 0 gave up\n",
			"advised, to paste: 5s x3, full jitter under a 1h cap, 13 attempts (12 retries):\nretrytest.Policy{",
		}},
		{[]string{"-capacity", "30", "-keep", "factor,jitter", "-max-gave-up", "2%"}, []string{
			"advice: none: no policy meets the limits: of the policies around fixed, keeping Growth+Jitter (57 simulations), none sends at most 27 requests per 1m and gives up on at most 6 jobs;",
			"Try -keep with fewer dimensions, or a larger -max-gave-up.",
		}},
		{[]string{"-capacity", "30", "-keep", "cap,attempts", "-max-gave-up", "10"}, []string{"give up on at most 10 jobs", "  3. -base 2.5s -factor 4  peak 26,"}},
		{nil, []string{"advice: no change needed: fixed keeps every minute at or under 45 requests (90% of 50) and gives up on 0 jobs, within the 3 allowed (1%).",
			"fixed, to paste: 5s doubling, full jitter under a 1h cap, 13 attempts (12 retries): retrytest.Policy{"}},
	} {
		code, stdout, stderr := runArgs(t, append(small, tc.args...)...)
		if code != 0 || stderr != "" {
			t.Errorf("run(%q) = %d, stderr %q, want 0 and nothing on stderr", tc.args, code, stderr)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(flat(stdout), flat(want)) {
				t.Errorf("run(%q) printed\n%s\nwant it to contain %q", tc.args, stdout, want)
			}
		}
	}
}

// flat joins the words of s with single spaces, so that a check does not
// depend on where the text wraps or how columns align.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestFasterGrowthPasses checks the remedy the package doc gives: in seed
// 000's scenario, growing the ceiling threefold under a 2h cap keeps every
// minute under 600 and loses no job. (It simulates the fixed fleet alone:
// the old one is the default output's.)
func TestFasterGrowthPasses(t *testing.T) {
	sc, err := parse([]string{"-factor", "3", "-cap", "2h"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	l, err := sc.fleet("fixed", sc.fixed.Decide).Simulate()
	if err != nil {
		t.Fatal(err)
	}
	if l.Peak != 468 || l.GaveUp != 0 {
		t.Errorf("-factor 3 -cap 2h: %s, want the peak of 468 the package doc gives, and no job given up", l.Summary())
	}
	if err := policysim.CheckPeakAtMost(l, 600); err != nil {
		t.Error(err)
	}
}

func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "load.svg")
	code, stdout, stderr := runArgs(t, "-jobs", "300", "-outage", "30m", "-capacity", "30", "-svg", path)
	if code != 0 || stderr != "" || !strings.HasSuffix(stdout, "\nwrote "+path+"\n") {
		t.Fatalf("run(-svg) = %d, stderr %q, stdout ends %q, want 0 and \"wrote %s\"", code, stderr, stdout[max(0, len(stdout)-80):], path)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"old", "fixed", "advised"} {
		if !strings.HasPrefix(string(svg), "<svg ") || !strings.Contains(string(svg), name+": requests per 1m after recovery") {
			t.Errorf("the SVG does not show the %s load:\n%.300s", name, svg)
		}
	}

	bad := filepath.Join(t.TempDir(), "missing", "load.svg")
	code, stdout, stderr = runArgs(t, "-jobs", "10", "-svg", bad)
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "fleetsim: open "+bad+": ") {
		t.Errorf("run(-svg %s) = %d, stdout %q, stderr %q, want 1, nothing printed, the error on stderr", bad, code, stdout, stderr)
	}
}
