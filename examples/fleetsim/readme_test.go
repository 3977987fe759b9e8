package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// This directory's README.md holds the long outputs of the command; the
// tests here keep them current. TestBreakersOutput pins the -breakers
// output there, and TestTogetherFailsTheSeedsFix the -together
// verdict.

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The README's first output block must be what go run ./examples/fleetsim
// prints; TestDefaultOutput checks the golden file against the command.
func TestREADMEShowsDefaultOutput(t *testing.T) {
	golden, err := os.ReadFile("testdata/default.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readme(t), "```\n"+string(golden)+"```\n") {
		t.Errorf("README.md does not show the output of go run ./examples/fleetsim verbatim; copy testdata/default.golden into it")
	}
}

// Every Go block of the README names, in an HTML comment on the line
// before it, the compiled file it is copied from, relative to this
// directory; the block must still be in that file.
func TestREADMEBlocksAreCompiled(t *testing.T) {
	blocks := regexp.MustCompile("(?s)(?:<!-- copied from (\\S+) -->\\n)?```go\\n(.*?)```").FindAllStringSubmatch(readme(t), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go blocks; this test would prove nothing")
	}
	for i, b := range blocks {
		from, code := b[1], b[2]
		if from == "" {
			t.Errorf("README.md Go block %d has no <!-- copied from FILE --> line before it:\n%s", i+1, code)
			continue
		}
		src, err := os.ReadFile(from)
		if err != nil {
			t.Errorf("README.md Go block %d: %v", i+1, err)
			continue
		}
		if !strings.Contains(string(src), code) {
			t.Errorf("README.md Go block %d is not in %s any more; copy it again:\n%s", i+1, from, code)
		}
	}
}

// The README's table of the presets holds, for each, the peak, the drain
// and the jobs given up of its column in testdata/preset_*.golden (which
// TestPresetOutput pins to the command), and its verdict.
func TestREADMEPresetTable(t *testing.T) {
	text := readme(t)
	for _, preset := range []string{"river", "asynq"} {
		golden, err := os.ReadFile("testdata/preset_" + preset + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		g := string(golden)
		// The second column of the comparison: old, then the preset.
		column := func(row string) string {
			m := regexp.MustCompile(`(?m)^  ` + row + ` +(?:\S+(?: \S+)*)  +(\S+(?: \S+)*)`).FindStringSubmatch(g)
			if m == nil {
				t.Fatalf("testdata/preset_%s.golden has no row %q", preset, row)
			}
			return m[1]
		}
		peak, _, _ := strings.Cut(column("peak"), " ")
		verdict := regexp.MustCompile(`(?m)^  ` + preset + ` +(PASS|FAIL)  (?:\d+ requests in one minute, ([\d.]+x))?`).FindStringSubmatch(g)
		if verdict == nil {
			t.Fatalf("testdata/preset_%s.golden has no verdict for %s", preset, preset)
		}
		v := verdict[1]
		if v == "FAIL" && verdict[2] != "" {
			v += " (" + verdict[2] + ")"
		}
		row := fmt.Sprintf("| %s | %s | %s | %s |\n", peak, column("drained after"), column("jobs given up"), v)
		if !strings.Contains(text, "| `-preset "+preset+"` |") || !strings.Contains(text, row) {
			t.Errorf("README.md's row for -preset %s does not end %q, as testdata/preset_%s.golden says", preset, row, preset)
		}
	}
}
