package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// gate runs the mutants of some lists and reports them.
type gate struct {
	parallel int           // mutants run at once
	timeout  time.Duration // go test -timeout
	minimum  int           // fewest mutants a list must hold
	// last matches the tests (go test -run syntax) that run only when
	// every other test passed: slow ones, so that a mutant the quick
	// tests kill does not wait for them. Empty: one pass.
	last string
	// record makes the gate write each list's killers file after the run.
	record bool
	// hang is the -test.timeout of a hint recorded as a hang ("hang:TestX"):
	// a mutant that made TestX loop for ever last time is run in TestX
	// alone for this long, not for the whole timeout.
	hang time.Duration
	// memory keeps kills and passing baselines (-cache); nil: none kept.
	memory *verdicts
}

// The verdicts on a mutant.
const (
	killed   = "killed"
	skipped  = "skipped"
	survived = "survived"
	stale    = "stale"
	noop     = "no-op"
	broken   = "broken"
)

// verdict is what became of one mutant.
type verdict struct {
	kind   string
	line   int    // the line of the file the mutant changes; 0 if stale
	detail string // the killing test, the skip reason, or what went wrong
	test   string // the top-level test that killed it, for the killers file ("hang:TestX" for a hang in TestX)
	// remembered: the kill came from the memory of verdicts, not a run.
	remembered bool
	// note says why a kill could not be remembered.
	note string
}

func (v verdict) failed() bool { return v.kind != killed && v.kind != skipped }

// run runs every mutant of lists, prints a line per mutant, a summary
// per list and the failures again at the end, and reports whether the gate
// passed.
func (g gate) run(lists []*list, w io.Writer) bool {
	start := time.Now()
	verdicts := make([][]verdict, len(lists))
	baselines := make([]baselineRun, len(lists))
	fingerprints := make([]string, len(lists))
	if g.memory != nil {
		for i, l := range lists {
			fp, err := g.fingerprint(l.dir)
			if err != nil {
				fmt.Fprintf(w, "%s: no memory of verdicts for this list, every mutant runs: %v\n", l.dir, err)
				continue
			}
			fingerprints[i] = fp
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, g.parallel)
	for i, l := range lists {
		// The package's tests with no mutant planted, built and run as a
		// mutant's are: if they fail, every mutant would read as killed.
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			baselines[i] = g.baseline(l.dir, fingerprints[i])
		})
		verdicts[i] = make([]verdict, len(l.mutants))
		for j, m := range l.mutants {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				verdicts[i][j] = g.try(l.dir, m, l.killers[m.desc], fingerprints[i])
			})
		}
	}
	wg.Wait()

	ok := true
	var failures []string
	for i, l := range lists {
		count := map[string]int{}
		remembered := 0
		for j, m := range l.mutants {
			v := verdicts[i][j]
			count[v.kind]++
			line := fmt.Sprintf("%-8s %s: %s", v.kind, where(l, m, v), m.desc)
			if v.detail != "" {
				line += " (" + v.detail + ")"
			}
			if v.remembered {
				remembered++
				line += " [remembered]"
			}
			if v.note != "" {
				line += " [" + v.note + "]"
			}
			fmt.Fprintln(w, line)
			if v.failed() {
				ok = false
				failures = append(failures, fmt.Sprintf("%s %s: %s → %s: %s (%s)",
					strings.ToUpper(v.kind), where(l, m, v), m.original, m.replacement, m.desc, v.detail))
			}
		}
		memo := ""
		if fingerprints[i] != "" {
			memo = fmt.Sprintf(" (%d kills remembered", remembered)
			if baselines[i].remembered {
				memo += ", and the baseline"
			}
			memo += ")"
		}
		fmt.Fprintf(w, "== %s: %d mutants, %d killed%s, %d skipped, %d failed\n",
			l.dir, len(l.mutants), count[killed], memo, count[skipped], len(l.mutants)-count[killed]-count[skipped])
		if n := baselines[i].note; n != "" {
			fmt.Fprintln(w, n)
		}
		if err := baselines[i].err; err != nil {
			ok = false
			msg := fmt.Sprintf("BASELINE %s: the tests fail with no mutant planted (%v), so every mutant would read as killed: make them pass first", l.dir, err)
			fmt.Fprintln(w, msg)
			failures = append(failures, msg)
		}
		if g.record {
			if err := l.writeKillers(verdicts[i]); err != nil {
				ok = false
				failures = append(failures, "RECORD "+err.Error())
			}
		}
		if len(l.mutants) < g.minimum {
			ok = false
			failures = append(failures, fmt.Sprintf("TOO FEW %s holds %d mutants, want at least %d", l.path, len(l.mutants), g.minimum))
		}
	}
	status := "ok"
	if !ok {
		status = "FAIL"
	}
	fmt.Fprintf(w, "mutation gate: %s in %s\n", status, time.Since(start).Round(time.Second))
	for _, f := range failures {
		fmt.Fprintln(w, f)
	}
	return ok
}

// where names the mutant's place: the file and line it changes, and the
// line of its block in the list.
func where(l *list, m mutant, v verdict) string {
	file := filepath.Join(l.dir, m.file)
	if v.line > 0 {
		file = fmt.Sprintf("%s:%d", file, v.line)
	}
	return fmt.Sprintf("%s [%s:%d]", file, filepath.Base(l.path), m.line)
}

// try applies m to its file in dir and runs the package's tests: hint,
// the test that killed it last time (the list's killers file), first. A
// kill of m in a package of that fingerprint that the memory holds is the
// verdict without a run; a new kill is remembered.
func (g gate) try(dir string, m mutant, hint, fingerprint string) verdict {
	path, err := filepath.Abs(filepath.Join(dir, m.file))
	if err != nil {
		return verdict{kind: broken, detail: err.Error()}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return verdict{kind: stale, detail: err.Error()}
	}
	mutated, line, err := apply(string(src), m)
	if err != nil {
		return verdict{kind: stale, detail: err.Error()}
	}
	if m.original == m.replacement {
		return verdict{kind: noop, line: line, detail: "the replacement is the original"}
	}
	if m.skip != "" {
		return verdict{kind: skipped, line: line, detail: m.skip}
	}
	k := mutantKey(fingerprint, m)
	if e, ok := g.memory.get(k); ok && e.Kind == killed {
		return verdict{kind: killed, line: line, detail: e.Detail, test: e.Test, remembered: true}
	}
	out, err := g.test(dir, path, mutated, hint)
	var exit *exec.ExitError
	var build *buildError
	switch {
	case errors.As(err, &build):
		return verdict{kind: broken, line: line, detail: "does not compile: " + firstLines(out, 1)}
	case err == nil:
		return verdict{kind: survived, line: line, detail: "every test passed"}
	case !errors.As(err, &exit):
		// the test binary did not run, or ran past its time: no verdict on the tests.
		return verdict{kind: broken, line: line, detail: err.Error()}
	}
	detail := killer(out)
	v := verdict{kind: killed, line: line, detail: detail, test: topTest(detail)}
	if err := g.memory.put(k, entry{Kind: killed, Detail: v.detail, Test: v.test}); err != nil {
		v.note = "not remembered: " + err.Error()
	}
	return v
}

// buildError is the error of a mutant whose test binary does not build.
type buildError struct{ err error }

func (e *buildError) Error() string { return "build: " + e.err.Error() }

// topTest is the top-level test of a killer's detail, "by TestX/case":
// TestX; "by the timeout (2m0s), in TestX/case": hang:TestX; "" for a kill by
// output or by a timeout in no named test.
func topTest(detail string) string {
	if rest, ok := strings.CutPrefix(detail, "by the timeout ("); ok {
		if _, in, ok := strings.Cut(rest, "), in "); ok {
			name, _, _ := strings.Cut(in, "/")
			return hangPrefix + name
		}
		return ""
	}
	name, ok := strings.CutPrefix(detail, "by Test")
	if !ok {
		name, ok = strings.CutPrefix(detail, "by Example")
		if !ok {
			return ""
		}
		name = "Example" + name
	} else {
		name = "Test" + name
	}
	name, _, _ = strings.Cut(name, "/")
	return name
}

// hangPrefix marks a killers-file hint as a hang: the test ran past the
// timeout.
const hangPrefix = "hang:"

// apply replaces m's original in src and returns the new text and the
// line (from 1) of the replaced occurrence.
func apply(src string, m mutant) (string, int, error) {
	var at []int
	for i := 0; ; {
		k := strings.Index(src[i:], m.original)
		if k < 0 {
			break
		}
		at = append(at, i+k)
		i += k + len(m.original)
	}
	var pos int
	switch {
	case len(at) == 0:
		return "", 0, fmt.Errorf("the original %q is not in the file: update the list to follow the code", m.original)
	case m.occurrence == 0 && len(at) > 1:
		return "", 0, fmt.Errorf("the original %q occurs %d times: add \"occurrence: N\" or lengthen it", m.original, len(at))
	case m.occurrence > len(at):
		return "", 0, fmt.Errorf("occurrence %d of %q wanted, the file has %d", m.occurrence, m.original, len(at))
	case m.occurrence > 0:
		pos = at[m.occurrence-1]
	default:
		pos = at[0]
	}
	line := 1 + strings.Count(src[:pos], "\n")
	return src[:pos] + m.replacement + src[pos+len(m.original):], line, nil
}

// baseline builds and runs the tests of the package in dir as test does a
// mutant's, with nothing replaced, and returns what failed, or nil; and
// whether the pass came from the memory (a pass of a package of that
// fingerprint), which keeps a new one.
func (g gate) baseline(dir, fingerprint string) baselineRun {
	k := baselineKey(fingerprint)
	if e, ok := g.memory.get(k); ok && e.Kind == passed {
		return baselineRun{remembered: true}
	}
	out, err := g.test(dir, "", "", "")
	var build *buildError
	switch {
	case err == nil:
		var r baselineRun
		if err := g.memory.put(k, entry{Kind: passed}); err != nil {
			r.note = "the baseline's pass not remembered: " + err.Error()
		}
		return r
	case errors.As(err, &build):
		return baselineRun{err: fmt.Errorf("%w: %s", err, firstLines(out, 1))}
	}
	return baselineRun{err: fmt.Errorf("%s: %s", killer(out), firstLines(out, 1))}
}

// passed is the memory's entry for a baseline that passed.
const passed = "passed"

// baselineRun is what became of a list's baseline.
type baselineRun struct {
	err        error  // what failed; nil when the tests passed
	remembered bool   // the pass came from the memory of verdicts
	note       string // why a pass could not be remembered
}

// test builds the test binary of the package in dir with the file at
// path replaced by mutated, through an overlay (path "": nothing
// replaced, the baseline), and runs it there: the
// test named hint first, alone, when there is one (the one that killed the
// mutant last time: if it kills it again, nothing else runs); then every
// test, stopping at the first failure, the tests matching last only once
// the others pass. It returns the output and error of the last run.
func (g gate) test(dir, path, mutated, hint string) (string, error) {
	scratch, err := os.MkdirTemp("", "mutant-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(scratch)
	replace := map[string]string{}
	file := filepath.Join(scratch, filepath.Base(path))
	if path != "" {
		if err := os.WriteFile(file, []byte(mutated), 0o644); err != nil {
			return "", err
		}
		replace[path] = file
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return "", err
	}
	ovl := filepath.Join(scratch, "overlay.json")
	if err := os.WriteFile(ovl, overlay, 0o644); err != nil {
		return "", err
	}
	// The test binary stops itself at -timeout; the context only guards
	// against a build that hangs.
	limit := g.timeout + 5*time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	bin := filepath.Join(scratch, "mutant.test")
	// -s -w: no symbol table and no DWARF, which no test reads (stacks and
	// call sites come from the runtime's own tables): a tenth off a build;
	// -dwarf=false for the package and its tests, whose DWARF the linker
	// would drop: 5 to 8% more (fakeclock: 1.91s → 1.79s a mutant).
	// Not -trimpath, which would let a fresh clone's build cache serve
	// mutants met before: internal/settle's tests of waits on another
	// clock read the stack's file paths, and under it six mutants of
	// elsewhere.go survived while the baseline passed.
	build := exec.CommandContext(ctx, "go", "test", "-c", "-overlay="+ovl, "-vet=off", "-gcflags=-dwarf=false", "-ldflags=-s -w", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", err // go did not run
		}
		// Compile errors name the scratch file: name the real one.
		return realName(out, file, path), &buildError{err}
	}
	if _, err := os.Stat(bin); err != nil {
		return "", &buildError{fmt.Errorf("go test -c wrote no binary: %w (a package without tests?)", err)}
	}
	args := []string{"-test.count=1", "-test.failfast", "-test.timeout=" + g.timeout.String()}
	var passes [][]string
	if name, hang := strings.CutPrefix(hint, hangPrefix); hang {
		// A hang last time: the test alone, for g.hang, then the rest.
		passes = append(passes, []string{"-test.run=^" + regexp.QuoteMeta(name) + "$", "-test.timeout=" + g.hang.String()})
	} else if hint != "" {
		passes = append(passes, []string{"-test.run=^" + regexp.QuoteMeta(hint) + "$"})
	}
	if g.last != "" {
		passes = append(passes, []string{"-test.skip=" + g.last}, []string{"-test.run=" + g.last})
	} else {
		passes = append(passes, nil)
	}
	var out []byte
	for _, pass := range passes {
		cmd := exec.CommandContext(ctx, bin, append(slices.Clip(args), pass...)...)
		cmd.Dir = dir
		out, err = cmd.CombinedOutput()
		if ctx.Err() != nil {
			err = fmt.Errorf("the test binary ran past %v and was stopped", limit)
		}
		if err != nil {
			break
		}
	}
	return realName(out, file, path), err
}

// realName is out with the scratch file's name replaced by the real one's,
// path (none for the baseline).
func realName(out []byte, scratch, path string) string {
	if path == "" {
		return string(out)
	}
	return strings.ReplaceAll(string(out), scratch, path)
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// killer names what failed in out: the first failing test, a timeout, or
// the first line of the output.
func killer(out string) string {
	if _, after, ok := strings.Cut(out, "panic: test timed out after "); ok {
		// "panic: test timed out after 2m0s", then "running tests:" and
		// one tab-indented "TestX (2m0s)" per test.
		limit, _, _ := strings.Cut(after, "\n")
		if _, after, ok := strings.Cut(after, "running tests:\n"); ok {
			if name, _, ok := strings.Cut(strings.TrimSpace(after), " "); ok && strings.HasPrefix(name, "Test") {
				return "by the timeout (" + limit + "), in " + name
			}
		}
		return "by the timeout (" + limit + ")"
	}
	if m := failLine.FindStringSubmatch(out); m != nil {
		return "by " + m[1]
	}
	return "by: " + firstLines(out, 1)
}

// firstLines returns the first n non-empty lines of out, joined by " | ".
func firstLines(out string, n int) string {
	var lines []string
	for l := range strings.SplitSeq(out, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
			if len(lines) == n {
				break
			}
		}
	}
	return strings.Join(lines, " | ")
}
