// Mutants is the mutation gate of .ci/run: it plants realistic one-line
// bugs in a package's production code, one at a time, runs that package's
// tests against each, and fails if any bug goes unnoticed.
//
// Usage, from the module root:
//
//	go run ./.ci/mutants [-p 2] [-timeout 60s] [-hang 20s] [-min 20] [-record] [-cache dir] dir...
//
// Each dir is a package directory holding its list at testdata/mutants.txt.
// A mutant is applied with go test -overlay (the file is rewritten in a
// scratch directory; the tree is never copied or touched) and the package's
// tests run without -race, with -count=1, -vet=off and the -timeout given:
// a failing run kills the mutant, a passing one lets it survive. -p runs that
// many mutants at once; the report is in list order whatever -p is. Test
// binaries are built with -gcflags=-dwarf=false -ldflags=-s -w; the
// package's tests also run once with nothing planted, built the same way
// (the baseline), and a list whose tests fail then fails the gate, since
// every mutant would read as killed.
//
// # The list
//
// Lines starting with '#' and blank lines are ignored. Each mutant is a
// block of lines:
//
//	mutant policy.go: the Retry-After floor dropped
//	- min(max(se.RetryAfter, Base), Cap)
//	+ min(se.RetryAfter, Cap)
//
// The first line names the file, in dir, and describes the bug. "- " gives
// the original text and "+ " what replaces it, each on one line with the
// spaces around it ignored. The original must occur exactly once in the file,
// so the mutant cannot land on another line; when the same text occurs
// several times, an "occurrence: N" line picks the N-th (from 1). A block may
// end with "skip: reason" for a mutant that cannot change behaviour: it is
// listed, and its original still checked, but not run. Test files and
// buggy.go (the examples' old implementations, kept to be caught) are refused.
//
// # Verdicts
//
// Every mutant gets one line: killed (with the first failing test), skipped
// (with the reason), or one of the failures: survived, stale (the original is
// no longer in the file, or no longer once: the list must follow the code),
// no-op (the mutant equals the original) or broken (the mutant does not
// compile: it would be killed without testing anything). The failures are
// repeated at the end, with file, line, original → mutant and description,
// and the exit status is 1. A list with fewer than -min mutants fails too.
// Bad flags or an unreadable list exit with status 2.
//
// # Killers
//
// -record writes testdata/mutants.killers beside each list: the test that
// killed each mutant, which the next run tries first and alone (a mutant
// is one build and one test). A mutant that made a test loop until the
// timeout is recorded as "hang:TestX", and TestX then runs alone for -hang
// rather than for the whole -timeout: in seqrand, eight such mutants cost
// 120s each before. Hints only order the work: without them, or when one no
// longer kills, every test runs as before.
//
// # Memory
//
// -cache DIR keeps each kill, and each list's passing baseline, under a
// hash of everything the run read: the mutant, the sources of every
// package the test binary is built from, every file under the package's
// directory, go.mod and go.sum, the toolchain and the gate's flags. A run
// of the same code reuses them ("[remembered]" on the verdict's line, a
// count on the list's), as go test reuses a passing test's result; a
// change to any of those runs the mutant again. Survivors, broken and
// stale mutants and failing baselines are never kept: a failing gate runs
// again in full.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it parses args, runs the gate and returns the exit
// status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	fs.SetOutput(stderr)
	parallel := fs.Int("p", 2, "mutants run at once")
	timeout := fs.Duration("timeout", 60*time.Second, "go test -timeout for each mutant")
	minimum := fs.Int("min", 0, "fewest mutants each list must hold")
	last := fs.String("last", "", "tests (a go test -run pattern) that run only when all others pass")
	record := fs.Bool("record", false, "write each list's killers file ("+killersName+") after the run")
	hang := fs.Duration("hang", 20*time.Second, "-test.timeout of a test recorded as hanging under a mutant, run alone first")
	cache := fs.String("cache", "", "directory of the memory of verdicts: kills and passing baselines of the same code are not run again (none when empty)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./.ci/mutants [-p 2] [-timeout 60s] [-min 20] [-last regexp] [-cache dir] dir...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 || *parallel < 1 || *timeout <= 0 || *hang <= 0 || *minimum < 0 {
		fs.Usage()
		return 2
	}
	var lists []*list
	for _, dir := range fs.Args() {
		l, err := readList(dir)
		if err != nil {
			fmt.Fprintln(stderr, "mutants:", err)
			return 2
		}
		lists = append(lists, l)
	}
	g := gate{parallel: *parallel, timeout: *timeout, minimum: *minimum, last: *last, record: *record, hang: *hang}
	if *cache != "" {
		g.memory = &verdicts{dir: *cache}
	}
	if !g.run(lists, stdout) {
		return 1
	}
	return 0
}
