package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// listName is where a package keeps its mutants, relative to its
// directory.
const listName = "testdata/mutants.txt"

// list is the mutants of one package.
type list struct {
	dir     string // the package directory, as given
	path    string // the list file, for messages
	mutants []mutant
	killers map[string]string // description → the test that killed it last time
}

// mutant is one planted bug, as its block in the list says.
type mutant struct {
	line        int    // the line of "mutant" in the list
	file        string // the file to change, relative to the package directory
	desc        string
	original    string
	replacement string // may be empty: the original is deleted
	occurrence  int    // which occurrence of original to change; 0: the only one
	skip        string // why it cannot change behaviour; "" to run it
}

// readList reads dir's list of mutants.
func readList(dir string) (*list, error) {
	path := filepath.Join(dir, listName)
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	ms, err := parseList(path, string(text))
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	for _, m := range ms {
		if prev, dup := seen[m.desc]; dup {
			return nil, fmt.Errorf("%s:%d: the description of the mutant at line %d again: each names one mutant (the killers file is keyed by it)", path, m.line, prev)
		}
		seen[m.desc] = m.line
	}
	killers, err := readKillers(dir)
	if err != nil {
		return nil, err
	}
	return &list{dir: dir, path: path, mutants: ms, killers: killers}, nil
}

// parseList parses the text of a list; name is the list's name in errors.
// It checks the blocks' shape only: whether each original is in its file
// is for the gate to find out, and report per mutant.
func parseList(name, text string) ([]mutant, error) {
	var ms []mutant
	var cur *mutant
	var plus bool // cur has its "+" line
	finish := func() error {
		switch {
		case cur == nil:
			return nil
		case cur.original == "":
			return fmt.Errorf(`%s:%d: the mutant has no "- original" line`, name, cur.line)
		case !plus:
			return fmt.Errorf(`%s:%d: the mutant has no "+ replacement" line`, name, cur.line)
		}
		ms = append(ms, *cur)
		cur, plus = nil, false
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "mutant "); ok {
			if err := finish(); err != nil {
				return nil, err
			}
			file, desc, _ := strings.Cut(rest, ":")
			file, desc = strings.TrimSpace(file), strings.TrimSpace(desc)
			if file == "" || desc == "" {
				return nil, fmt.Errorf(`%s:%d: want "mutant FILE: description", got %q`, name, n, line)
			}
			if err := checkFile(file); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			cur = &mutant{line: n, file: file, desc: desc}
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf(`%s:%d: %q is outside a mutant block (a block starts with "mutant FILE: description")`, name, n, line)
		}
		var err error
		switch {
		case line == "-" || strings.HasPrefix(line, "- "):
			if cur.original != "" {
				err = errors.New(`two "- original" lines`)
			}
			cur.original = strings.TrimSpace(line[1:])
			if cur.original == "" {
				err = errors.New(`an empty "- original" line`)
			}
		case line == "+" || strings.HasPrefix(line, "+ "):
			if plus {
				err = errors.New(`two "+ replacement" lines`)
			}
			cur.replacement, plus = strings.TrimSpace(line[1:]), true
		case strings.HasPrefix(line, "occurrence:"):
			cur.occurrence, err = strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "occurrence:")))
			if err == nil && cur.occurrence < 1 {
				err = fmt.Errorf("occurrence %d, want 1 or more", cur.occurrence)
			}
		case strings.HasPrefix(line, "skip:"):
			cur.skip = strings.TrimSpace(strings.TrimPrefix(line, "skip:"))
			if cur.skip == "" {
				err = errors.New(`"skip:" without a reason`)
			}
		default:
			err = fmt.Errorf(`want "- original", "+ replacement", "occurrence: N" or "skip: reason", got %q`, line)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return ms, nil
}

// checkFile refuses a file the gate must not mutate: one outside the
// package directory, a test, or buggy.go, where the examples keep their old
// implementations for the tests to catch.
func checkFile(file string) error {
	switch {
	case filepath.Base(file) != file || !strings.HasSuffix(file, ".go"):
		return fmt.Errorf("file %q: want a .go file of the package directory", file)
	case strings.HasSuffix(file, "_test.go"):
		return fmt.Errorf("file %q is a test: mutants go in production code", file)
	case file == "buggy.go":
		return fmt.Errorf("file %q holds the old implementations the tests must catch, not production code", file)
	}
	return nil
}

// killersName is the file, beside the list, that names for each mutant the
// test that killed it last time: the gate runs that test first, alone.
// Written by -record; a name that no longer kills costs one run of one
// test, then every test runs as without it. "hang:TestX" records a mutant
// that made TestX run past the timeout: TestX runs alone for -hang.
const killersName = "testdata/mutants.killers"

// readKillers reads the killers file of dir: description → test. A
// missing file is no hints.
func readKillers(dir string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, killersName))
	if errors.Is(err, os.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		test, desc, ok := strings.Cut(line, "\t")
		name := strings.TrimPrefix(test, hangPrefix)
		if !ok || !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Example") {
			return nil, fmt.Errorf("%s:%d: want \"TestName<TAB>mutant description\" (\"hang:TestName\" for a test the mutant made hang)", filepath.Join(dir, killersName), i+1)
		}
		out[desc] = test
	}
	return out, nil
}

// writeKillers writes the killers file of l from the verdicts of a run.
func (l *list) writeKillers(vs []verdict) error {
	var b strings.Builder
	b.WriteString("# Written by go run ./.ci/mutants -record: the test that killed each mutant,\n# run first and alone by the gate. The gate is right without this file, only slower.\n")
	for i, m := range l.mutants {
		if vs[i].test != "" {
			fmt.Fprintf(&b, "%s\t%s\n", vs[i].test, m.desc)
		}
	}
	return os.WriteFile(filepath.Join(l.dir, killersName), []byte(b.String()), 0o644)
}
