package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// fixture is a tiny package whose test leaves a dropped cap unnoticed; its
// list, testdata/fixture/testdata/mutants.txt, holds one mutant of each
// verdict.
const fixture = "testdata/fixture"

// The whole command on the fixture: each verdict on its line, the failures
// repeated at the end with file, line, original → mutant and description,
// and exit status 1.
func TestGateFailsOnSurvivorStaleAndBroken(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-p", "2", "-timeout", "30s", fixture}, &stdout, &stderr); code != 1 {
		t.Errorf("run = %d, want 1\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, want := range []string{
		"killed   testdata/fixture/fixture.go:8 [mutants.txt:3]: the exponent off by one (by TestCeiling)\n",
		"survived testdata/fixture/fixture.go:9 [mutants.txt:7]: the cap dropped (every test passed)\n",
		"skipped  testdata/fixture/fixture.go:8 [mutants.txt:11]: the doubling written as a product (the same value for every n the shift allows)\n",
		"== testdata/fixture: 5 mutants, 1 killed, 1 skipped, 3 failed\n",
		"mutation gate: FAIL in ",
		"SURVIVED testdata/fixture/fixture.go:9 [mutants.txt:7]: return min(c, limit) → return c: the cap dropped (every test passed)\n",
		`STALE testdata/fixture/fixture.go [mutants.txt:16]: c := base * 2 ** n → c := base: a line that is no longer there (the original "c := base * 2 ** n" is not in the file: update the list to follow the code)` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q; it is:\n%s", want, out)
		}
	}
	// The compile error names the real file, not the scratch copy.
	broken := regexp.MustCompile(`(?m)^BROKEN testdata/fixture/fixture.go:9 \[mutants.txt:20\]: return min\(c, limit\) → return min\(c, limit, "cap"\): a mutant that does not compile \(does not compile: \S*testdata/fixture/fixture.go:9:\d+: .*\)$`)
	if !broken.MatchString(out) {
		t.Errorf("the output has no line matching %s; it is:\n%s", broken, out)
	}
	// The scratch copies live in os.TempDir()/mutant-*; the clone under
	// test may itself sit in os.TempDir(), so look for the scratch prefix.
	if scratch := filepath.Join(os.TempDir(), "mutant-"); strings.Contains(out, scratch) {
		t.Errorf("the output names a scratch file (%s…):\n%s", scratch, out)
	}
}

// A list whose mutants are all killed or skipped passes, and -min holds it
// to a size.
func TestGatePassesWhenEveryMutantIsKilled(t *testing.T) {
	ms, err := parseList("inline", `
mutant fixture.go: the exponent off by one
- base << n
+ base << (n + 1)

mutant fixture.go: the doubling written as a product
- c := base << n
+ c := base * (1 << n)
skip: the same value
`)
	if err != nil {
		t.Fatal(err)
	}
	l := &list{dir: fixture, path: "inline", mutants: ms}
	var out bytes.Buffer
	if !(gate{parallel: 1, timeout: 30 * time.Second}).run([]*list{l}, &out) {
		t.Errorf("the gate failed, want it to pass:\n%s", &out)
	}
	out.Reset()
	if (gate{parallel: 1, timeout: 30 * time.Second, minimum: 3}).run([]*list{l}, &out) {
		t.Errorf("the gate passed with 2 mutants and -min 3, want it to fail:\n%s", &out)
	}
	if want := "TOO FEW inline holds 2 mutants, want at least 3\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("the output does not end with %q:\n%s", want, &out)
	}
}

func TestApply(t *testing.T) {
	src := "a := 1\nb := f(a)\nc := f(a)\n"
	for _, tc := range []struct {
		name      string
		m         mutant
		want      string
		line      int
		wantError string
	}{
		{"once", mutant{original: "b := f(a)", replacement: "b := f(a+1)"}, "a := 1\nb := f(a+1)\nc := f(a)\n", 2, ""},
		{"deleted", mutant{original: " := 1", replacement: ""}, "a\nb := f(a)\nc := f(a)\n", 1, ""},
		{"second occurrence", mutant{original: "f(a)", replacement: "g(a)", occurrence: 2}, "a := 1\nb := f(a)\nc := g(a)\n", 3, ""},
		{"gone", mutant{original: "d := f(a)", replacement: "d := 0"}, "", 0, `the original "d := f(a)" is not in the file: update the list to follow the code`},
		{"ambiguous", mutant{original: "f(a)", replacement: "g(a)"}, "", 0, `the original "f(a)" occurs 2 times: add "occurrence: N" or lengthen it`},
		{"occurrence past the end", mutant{original: "f(a)", replacement: "g(a)", occurrence: 3}, "", 0, `occurrence 3 of "f(a)" wanted, the file has 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, line, err := apply(src, tc.m)
			if tc.wantError != "" {
				if err == nil || err.Error() != tc.wantError {
					t.Errorf("apply(%+v) error = %v, want %q", tc.m, err, tc.wantError)
				}
				return
			}
			if err != nil || got != tc.want || line != tc.line {
				t.Errorf("apply(%+v) = %q, line %d, %v; want %q, line %d", tc.m, got, line, err, tc.want, tc.line)
			}
		})
	}
}

func TestParseList(t *testing.T) {
	ms, err := parseList("l", `# a comment

mutant a.go: off by one
  - i < n
  + i <= n
occurrence: 2

mutant a.go: deleted
- && ok
+
skip: ok is always true here
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []mutant{
		{line: 3, file: "a.go", desc: "off by one", original: "i < n", replacement: "i <= n", occurrence: 2},
		{line: 8, file: "a.go", desc: "deleted", original: "&& ok", replacement: "", skip: "ok is always true here"},
	}
	if len(ms) != len(want) || ms[0] != want[0] || ms[1] != want[1] {
		t.Errorf("parseList = %+v\nwant %+v", ms, want)
	}
}

func TestParseListErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"- x\n+ y\n", `l:1: "- x" is outside a mutant block (a block starts with "mutant FILE: description")`},
		{"mutant a.go\n- x\n+ y\n", `l:1: want "mutant FILE: description", got "mutant a.go"`},
		{"mutant a.go: d\n+ y\n", `l:1: the mutant has no "- original" line`},
		{"mutant a.go: d\n- x\n\nmutant a.go: e\n- x\n+ y\n", `l:1: the mutant has no "+ replacement" line`},
		{"mutant a.go: d\n- x\n- y\n+ z\n", `l:3: two "- original" lines`},
		{"mutant a.go: d\n- x\n+ y\n+ z\n", `l:4: two "+ replacement" lines`},
		{"mutant a.go: d\n- x\n+ y\noccurrence: 0\n", `l:4: occurrence 0, want 1 or more`},
		{"mutant a.go: d\n- x\n+ y\nskip:\n", `l:4: "skip:" without a reason`},
		{"mutant a.go: d\n- x\n+ y\nx = y\n", `l:4: want "- original", "+ replacement", "occurrence: N" or "skip: reason", got "x = y"`},
		{"mutant a_test.go: d\n- x\n+ y\n", `l:1: file "a_test.go" is a test: mutants go in production code`},
		{"mutant buggy.go: d\n- x\n+ y\n", `l:1: file "buggy.go" holds the old implementations the tests must catch, not production code`},
		{"mutant ../a.go: d\n- x\n+ y\n", `l:1: file "../a.go": want a .go file of the package directory`},
	} {
		if _, err := parseList("l", tc.text); err == nil || err.Error() != tc.want {
			t.Errorf("parseList(%q) error = %v, want %q", tc.text, err, tc.want)
		}
	}
}

// A directory without a list, and bad flags, exit with status 2.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"-p", "0", fixture}, {"-nope"}, {t.TempDir()}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2\nstderr:\n%s", args, code, &stderr)
		}
	}
}

// A mutant whose tests cannot run at all is no kill: without a go command
// on the PATH, the gate fails and says why.
func TestGateFailsWhenTheTestsCannotRun(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	ms, err := parseList("inline", "mutant fixture.go: the exponent off by one\n- base << n\n+ base << (n + 1)\n")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if (gate{parallel: 1, timeout: 30 * time.Second}).run([]*list{{dir: fixture, path: "inline", mutants: ms}}, &out) {
		t.Errorf("the gate passed, want it to fail:\n%s", &out)
	}
	if want := `BROKEN testdata/fixture/fixture.go:8 [inline:1]: base << n → base << (n + 1): the exponent off by one (exec: "go": executable file not found in $PATH)`; !strings.Contains(out.String(), want) {
		t.Errorf("the output lacks %q; it is:\n%s", want, &out)
	}
}

// With -last, the tests it matches run in a second pass, only when the
// others passed: a mutant that only they kill is killed, and named so; a
// mutant no test kills still survives.
func TestGateRunsTheLastTestsAfterTheOthers(t *testing.T) {
	ms, err := parseList("inline", `
mutant fixture.go: the exponent off by one
- base << n
+ base << (n + 1)

mutant fixture.go: the cap dropped
- return min(c, limit)
+ return c
`)
	if err != nil {
		t.Fatal(err)
	}
	l := &list{dir: fixture, path: "inline", mutants: ms}
	var out bytes.Buffer
	if (gate{parallel: 2, timeout: 30 * time.Second, last: "^TestCeiling$"}).run([]*list{l}, &out) {
		t.Errorf("the gate passed with the cap dropped, want it to fail:\n%s", &out)
	}
	for _, want := range []string{
		"killed   testdata/fixture/fixture.go:8 [inline:2]: the exponent off by one (by TestCeiling)\n",
		"survived testdata/fixture/fixture.go:9 [inline:6]: the cap dropped (every test passed)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q; it is:\n%s", want, &out)
		}
	}
}

// The killers file: a hint that kills is the only test run (its name is
// the killer); a hint that no longer kills, or names no test, falls back
// to every test, which still kill the mutant; -record writes the file.
func TestKillerHints(t *testing.T) {
	ms, err := parseList("inline", `
mutant fixture.go: the exponent off by one
- base << n
+ base << (n + 1)
`)
	if err != nil {
		t.Fatal(err)
	}
	for _, hint := range []string{"TestCeiling", "TestNothingOfThatName", "TestCapIgnored"} {
		v := (gate{parallel: 1, timeout: 30 * time.Second}).try(fixture, ms[0], hint, "")
		if v.kind != killed || v.detail != "by TestCeiling" || v.test != "TestCeiling" {
			t.Errorf("hint %s: %+v, want killed by TestCeiling", hint, v)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"fixture.go", "fixture_test.go"} {
		b, err := os.ReadFile(filepath.Join(fixture, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fixture\n\ngo 1.26\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "testdata"), 0o755)
	l := &list{dir: dir, path: "inline", mutants: ms}
	var out bytes.Buffer
	if !(gate{parallel: 1, timeout: 30 * time.Second, record: true}).run([]*list{l}, &out) {
		t.Fatalf("the gate failed:\n%s", &out)
	}
	got, err := readKillers(dir)
	if err != nil || got["the exponent off by one"] != "TestCeiling" {
		t.Errorf("the recorded killers: %v, %v; want the mutant killed by TestCeiling", got, err)
	}
}

// A mutant that makes a test loop for ever is killed by the timeout, named
// with the test it hung in, and recorded as "hang:" that test; with that
// hint, the test runs alone for -hang, not for the whole timeout.
func TestHangHints(t *testing.T) {
	ms, err := parseList("inline", `
mutant fixture.go: the ceiling loops for ever
- c := base << n
+ c := base << n; for c > 0 {}
`)
	if err != nil {
		t.Fatal(err)
	}
	v := (gate{parallel: 1, timeout: 3 * time.Second, hang: time.Second}).try(fixture, ms[0], "", "")
	if v.kind != killed || v.detail != "by the timeout (3s), in TestCeiling" || v.test != "hang:TestCeiling" {
		t.Errorf("no hint: %+v, want killed by the timeout (3s), in TestCeiling, recorded as hang:TestCeiling", v)
	}
	v = (gate{parallel: 1, timeout: 10 * time.Minute, hang: 2 * time.Second}).try(fixture, ms[0], "hang:TestCeiling", "")
	if v.kind != killed || v.detail != "by the timeout (2s), in TestCeiling" {
		t.Errorf("hint hang:TestCeiling: %+v, want killed by the -hang timeout (2s), in TestCeiling", v)
	}
	if got := topTest("by the timeout (2m0s)"); got != "" {
		t.Errorf("topTest of a timeout in no named test = %q, want \"\"", got)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "testdata"), 0o755)
	os.WriteFile(filepath.Join(dir, killersName), []byte("hang:TestCeiling\tthe ceiling loops for ever\nhang:Ceiling\tnot a test\n"), 0o644)
	if _, err := readKillers(dir); err == nil || !strings.Contains(err.Error(), ":2: want") {
		t.Errorf("a hang hint naming no test: %v, want an error at line 2", err)
	}
}

// A list whose package's tests fail with no mutant planted fails the
// gate, naming the failing test, though its mutant is "killed": the
// baseline runs the tests alone, built as a mutant's are.
func TestGateFailsWhenTheTestsFailWithoutAMutant(t *testing.T) {
	ms, err := parseList("inline", "mutant failing.go: the exponent off by one\n- base << n\n+ base << (n + 1)\n")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if (gate{parallel: 2, timeout: 30 * time.Second, hang: time.Second}).run([]*list{{dir: "testdata/failing", path: "inline", mutants: ms}}, &out) {
		t.Errorf("the gate passed, want it to fail:\n%s", &out)
	}
	for _, want := range []string{
		"killed   testdata/failing/failing.go:8 [inline:1]: the exponent off by one (by TestCeiling)\n",
		"BASELINE testdata/failing: the tests fail with no mutant planted (by TestCeiling: --- FAIL: TestCeiling",
		"so every mutant would read as killed: make them pass first\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q; it is:\n%s", want, &out)
		}
	}
}

// copyFixture copies the fixture package, list included, into a module of
// its own under a new directory, and returns the directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"fixture.go", "fixture_test.go", "testdata/mutants.txt"} {
		b, err := os.ReadFile(filepath.Join(fixture, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/fixture\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The memory of verdicts: a kill and a passing baseline are reused while
// nothing the run read changed, wherever the code is cloned; a change to
// the code, the tests or a file under the package's directory runs them
// again; a survivor is never remembered.
func TestMemoryOfVerdicts(t *testing.T) {
	memory := t.TempDir()
	dir := copyFixture(t)
	gate := func(dir string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run([]string{"-p", "2", "-timeout", "30s", "-cache", memory, dir}, &stdout, &stderr); code != 1 {
			t.Fatalf("exit %d, want 1 (the fixture's survivor, stale and broken mutants); stderr:\n%s", code, stderr.String())
		}
		return stdout.String()
	}
	const kill = "killed   %s/fixture.go:8 [mutants.txt:3]: the exponent off by one (by TestCeiling)"
	survivor := regexp.MustCompile(`(?m)^survived .*\(every test passed\)$`) // never remembered
	check := func(out, dir string, remembered bool, summary string) {
		t.Helper()
		line := fmt.Sprintf(kill, dir)
		if remembered {
			line += " [remembered]"
		}
		if !strings.Contains(out, line+"\n") {
			t.Errorf("no line %q in:\n%s", line, out)
		}
		if !survivor.MatchString(out) {
			t.Errorf("the survivor was not run again (no line survived ... (every test passed)):\n%s", out)
		}
		if strings.Count(out, "[remembered]") > 1 {
			t.Errorf("more than the kill remembered:\n%s", out)
		}
		if want := fmt.Sprintf("== %s: 5 mutants, 1 killed %s, 1 skipped, 3 failed\n", dir, summary); !strings.Contains(out, want) {
			t.Errorf("no summary %q in:\n%s", want, out)
		}
	}
	check(gate(dir), dir, false, "(0 kills remembered)")
	check(gate(dir), dir, true, "(1 kills remembered, and the baseline)")

	// The list's killers only order the work.
	if err := os.WriteFile(filepath.Join(dir, killersName), []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check(gate(dir), dir, true, "(1 kills remembered, and the baseline)")

	// A clone elsewhere is the same code.
	clone := copyFixture(t)
	check(gate(clone), clone, true, "(1 kills remembered, and the baseline)")

	// A change to a test file, or to a file under the package, is not.
	for _, change := range []struct{ file, text string }{
		{"fixture_test.go", "\n// a comment\n"},
		{"testdata/golden.txt", "a golden file a test may read\n"},
		{"go.mod", "\n// a comment\n"},
	} {
		d := copyFixture(t)
		f, err := os.OpenFile(filepath.Join(d, change.file), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(change.text); err != nil {
			t.Fatal(err)
		}
		f.Close()
		check(gate(d), d, false, "(0 kills remembered)")
	}
}

// A change to the gate's own source (how it builds and runs a mutant)
// changes every fingerprint; a change to its tests does not.
func TestFingerprintHoldsTheGatesSource(t *testing.T) {
	g := gate{timeout: 30 * time.Second, hang: time.Second}
	fingerprint := func(src fstest.MapFS) string {
		t.Helper()
		old := gateSource
		gateSource = src
		defer func() { gateSource = old }()
		fp, err := g.fingerprint(fixture)
		if err != nil {
			t.Fatal(err)
		}
		return fp
	}
	base := fingerprint(fstest.MapFS{"gate.go": {Data: []byte("package main // v1\n")}})
	if fp := fingerprint(fstest.MapFS{"gate.go": {Data: []byte("package main // v1\n")}}); fp != base {
		t.Errorf("the same source gave two fingerprints")
	}
	if fp := fingerprint(fstest.MapFS{"gate.go": {Data: []byte("package main // v2\n")}}); fp == base {
		t.Errorf("a change to the gate's source kept the fingerprint: its kills would be reused")
	}
	if fp := fingerprint(fstest.MapFS{"gate.go": {Data: []byte("package main // v1\n")}, "gate_test.go": {Data: []byte("package main\n")}}); fp != base {
		t.Errorf("a change to the gate's tests changed the fingerprint")
	}
}
