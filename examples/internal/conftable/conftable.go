// Package conftable renders the tables of conformance runs in
// examples/recipes/README.md, and pins them: the table of the SDK
// clients ([SDKs], checked by the tests of examples/sdks) and the table
// of the retry libraries ([Libraries], checked by the recipes'
// conformance tests in examples/recipes). Each conformance test passes
// its [Row] and the [conformance.Report] of its run to [Table.Check],
// which fails the test unless the README's table holds that row exactly
// as the run renders it. With -update it writes the row instead.
// [Table.Main] fails a package's tests on a row of its client or library
// that no test checked (with -update, it removes it).
//
// A row is keyed by its first cell, the client or library and its
// configuration; the version in it is the one the module's go.mod
// requires (go mod tidy keeps it the version the build selects), so an
// upgrade changes the table too.
//
// A run without -update only reads the README: it writes nothing.
package conftable

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

var update = flag.Bool("update", false, "write the rows of the conformance tables in examples/recipes/README.md instead of checking them")

// Table is one table of conformance runs in a README: what differs
// between the tables, which share their columns and their code.
type Table struct {
	// Subject is what a row is of, the first word of the header:
	// "Client", "Library".
	Subject string
	// README is the file that holds the table, from the directory of a
	// test's package, where go test runs it.
	README string
	// GoMod is the go.mod of the tests' module, from the same directory:
	// the versions in the rows are read from it.
	GoMod string
}

// The tables of examples/recipes/README.md.
var (
	// SDKs is the table of the SDK clients, checked by the tests of
	// examples/sdks/<client>.
	SDKs = Table{Subject: "Client", README: "../../recipes/README.md", GoMod: "../go.mod"}
	// Libraries is the table of the retry libraries, checked by the
	// conformance tests of the recipes, examples/recipes/<library>.
	Libraries = Table{Subject: "Library", README: "../README.md", GoMod: "../go.mod"}
)

// Header is the table's header and delimiter row: its first line is how
// the table is found in the README. Only its first word, the Subject,
// differs between tables.
func (tb Table) Header() string {
	return "| " + tb.Subject + " (version): configuration | What its docs and source claim | Properties: pass / fail (waived) / skip | Checks: pass / fail (waived) / skip | Gaps: the waivers, each with its source line | Skipped |\n" +
		"|---|---|---|---|---|---|"
}

// Row is one configuration of one client or library in a table.
type Row struct {
	// Module is the module path of the client or library,
	// "github.com/openai/openai-go/v3": its version is read from the
	// tests' go.mod.
	Module string
	// Name is the client's or library's name as users know it:
	// "openai-go". [Table.Main] takes it: no two packages checking the
	// same table may share one.
	Name string
	// Config is the configuration the test runs, in Markdown:
	// "`NewClient` defaults".
	Config string
	// Claims is what the docs and source claim of it, the Spec of the
	// test in words, in one line of Markdown.
	Claims string
}

// Check renders row with the figures of r and fails t unless the README's
// table holds exactly that row (with -update, it writes it there). A run
// that selects only some properties (-run or -skip with a "/") is not
// checked: its Report has only those.
func (tb Table) Check(t *testing.T, row Row, r *conformance.Report) {
	t.Helper()
	if r == nil {
		t.Fatal("conftable: no Report: the suite did not run (its failure says why)")
	}
	if !r.Passed() {
		t.Fatal("conftable: the run has failures that are not waived, or stale waivers: the table shows only a run whose every failure is waived (the suite's failures above say what to fix)")
	}
	if partial(flagValue("test.run"), flagValue("test.skip")) {
		t.Logf("conftable: -run or -skip selects properties, so the row of %s: %s is not checked", row.Name, row.Config)
		return
	}
	version, err := tb.moduleVersion(row.Module)
	if err != nil {
		t.Fatal(err)
	}
	line := tb.Render(row, version, r)
	key := keyOf(line)
	checked.Store(tb.checkedKey(key), true)
	if *update {
		if err := tb.write(tb.README, line); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(tb.README)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, _, err := tb.table(tb.README, string(data))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range rows {
		if keyOf(l) == key {
			got = append(got, l)
		}
	}
	switch {
	case len(got) == 0:
		t.Errorf("conftable: %s has no row for %s; want\n%s\n%s", tb.README, key, line, tb.updateHint())
	case len(got) > 1:
		t.Errorf("conftable: %s has %d rows for %s, want one:\n%s", tb.README, len(got), key, strings.Join(got, "\n"))
	case got[0] != line:
		t.Errorf("conftable: the row of %s in %s is not what the run found:\n got: %s\nwant: %s\n%s", key, tb.README, got[0], line, tb.updateHint())
	}
}

// updateHint says where -update writes the rows: in the directory of the
// tests' module.
func (tb Table) updateHint() string {
	dir, err := filepath.Abs(filepath.Dir(tb.GoMod))
	if err != nil {
		dir = filepath.Dir(tb.GoMod)
	}
	return fmt.Sprintf("(go test ./... -run Conform -update, in %s, writes it)", dir)
}

// Pin fails t unless the properties and cases of r that were waived and
// skipped are exactly waived and skipped, in the suite's order: the list
// of a configuration's gaps, and of what its run could not check, as
// literals of its test.
func (Table) Pin(t *testing.T, r *conformance.Report, waived, skipped []string) {
	t.Helper()
	if r == nil {
		return
	}
	if got := r.Names(conformance.Waived); !slices.Equal(got, waived) {
		t.Errorf("waived:\n got %#v\nwant %#v", got, waived)
	}
	if got := r.Names(conformance.Skipped); !slices.Equal(got, skipped) {
		t.Errorf("skipped:\n got %#v\nwant %#v", got, skipped)
	}
}

// checked holds the table and key of every row Check was called for in
// this process.
var checked sync.Map

func (tb Table) checkedKey(key string) string { return tb.README + "\x00" + tb.Subject + "\x00" + key }

// Main wraps the m of a package's TestMain so that, after the tests, a row
// of name (its client or library, [Row.Name]) in the README's table that
// no test checked fails the run: a configuration removed from the tests
// leaves no row behind. It checks only when every conformance test ran,
// whatever the -count: no -skip, no -list, and -run unset or "Conform".
//
//	func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.SDKs.Main(m, "openai-go")) }
func (tb Table) Main(m *testing.M, name string) interface{ Run() int } {
	return mainRun{tb, m, name}
}

type mainRun struct {
	tb   Table
	m    *testing.M
	name string
}

func (mr mainRun) Run() int {
	code := mr.m.Run()
	if code != 0 || flag.Lookup("test.run") == nil || !fullRun(flagValue("test.run"), flagValue("test.skip"), flagValue("test.list")) {
		return code
	}
	isChecked := func(key string) bool {
		_, ok := checked.Load(mr.tb.checkedKey(key))
		return ok
	}
	if *update {
		err := mr.tb.edit(mr.tb.README, func(rows []string) []string {
			stale := staleRows(rows, mr.name, isChecked)
			return slices.DeleteFunc(rows, func(l string) bool { return slices.Contains(stale, l) })
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return code
	}
	data, err := os.ReadFile(mr.tb.README)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rows, _, _, err := mr.tb.table(mr.tb.README, string(data))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, l := range staleRows(rows, mr.name, isChecked) {
		fmt.Fprintf(os.Stderr, "conftable: %s has a row for %s that no test checked: remove it, or the test of that configuration is gone (go test ./... -run Conform -update removes it)\n", mr.tb.README, keyOf(l))
		code = 1
	}
	return code
}

// staleRows are the rows of name that isChecked says no test checked.
func staleRows(rows []string, name string, isChecked func(key string) bool) []string {
	var stale []string
	for _, l := range rows {
		if nameOf(l) == name && !isChecked(keyOf(l)) {
			stale = append(stale, l)
		}
	}
	return stale
}

// fullRun reports whether the values of -test.run, -test.skip and
// -test.list let every conformance test of a package run: only then can a
// row that no test checked be told from one whose test was left out.
// -count does not matter: every repetition checks the same rows.
func fullRun(run, skip, list string) bool {
	return list == "" && skip == "" && (run == "" || run == "Conform")
}

// partial reports whether the values of -test.run and -test.skip select
// subtests, the properties of a conformance test: its Report has only
// those, so its row would not be the table's.
func partial(run, skip string) bool {
	return strings.Contains(run, "/") || strings.Contains(skip, "/")
}

// flagValue is the value of the flag name, "" if there is none.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// moduleVersion is the version of module path that the tests' go.mod
// requires. (A test binary carries no build information of its
// dependencies, so go.mod is where the version is read.)
func (tb Table) moduleVersion(path string) (string, error) {
	data, err := os.ReadFile(tb.GoMod)
	if err != nil {
		return "", fmt.Errorf("conftable: reading the version of %s: %w", path, err)
	}
	version := ""
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		switch {
		case len(f) >= 2 && f[0] == path && version == "":
			version = f[1]
		case len(f) >= 3 && f[0] == "replace" && f[1] == path:
			return "", fmt.Errorf("conftable: %s replaces %s: the table gives versions from the module proxy", tb.GoMod, path)
		}
	}
	if version != "" {
		return version, nil
	}
	return "", fmt.Errorf("conftable: %s requires no %s: Row.Module names the module of the client or library", tb.GoMod, path)
}

// Render is the table's row for row, at version, with the figures of r.
// It is the same for every table.
func (Table) Render(row Row, version string, r *conformance.Report) string {
	props := map[conformance.Verdict]int{}
	for _, res := range r.Results {
		props[res.Verdict]++
	}
	names := func(st conformance.Verdict) []string { return r.Names(st) }
	// One line per reason, naming every case waived for it.
	var reasons []string
	waived := map[string][]string{}
	for _, name := range names(conformance.Waived) {
		why := reason(r, name)
		if _, ok := waived[why]; !ok {
			reasons = append(reasons, why)
		}
		waived[why] = append(waived[why], "`"+name+"`")
	}
	var gaps []string
	for _, why := range reasons {
		gaps = append(gaps, strings.Join(waived[why], ", ")+": "+why)
	}
	var skipped []string
	for _, name := range names(conformance.Skipped) {
		skipped = append(skipped, "`"+name+"`")
	}
	cells := []string{
		fmt.Sprintf("%s (%s): %s", row.Name, version, row.Config),
		row.Claims,
		fmt.Sprintf("%d / %d / %d", props[conformance.Passed], props[conformance.Waived], props[conformance.Skipped]),
		fmt.Sprintf("%d / %d / %d", len(names(conformance.Passed)), len(names(conformance.Waived)), len(names(conformance.Skipped))),
		orNone(strings.Join(gaps, "<br>")),
		orNone(strings.Join(skipped, ", ")),
	}
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return "| " + strings.Join(cells, " | ") + " |"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// reason is the first line of the waiver of name ("Property" or
// "Property/case") in r: the reason the test gave.
func reason(r *conformance.Report, name string) string {
	prop, kase, _ := strings.Cut(name, "/")
	for _, res := range r.Results {
		if res.Property != prop {
			continue
		}
		if kase == "" {
			return firstLine(res.Message)
		}
		for _, c := range res.Cases {
			if c.Name == kase {
				return firstLine(c.Message)
			}
		}
	}
	return ""
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// keyOf is a row's first cell without the version: "openai-go", then
// its configuration, so that an upgrade replaces the row.
func keyOf(line string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
	name, rest, ok := strings.Cut(first, " (")
	if !ok {
		return first
	}
	_, config, _ := strings.Cut(rest, "): ")
	return name + ": " + config
}

// nameOf is a row's client or library: its first cell up to the version.
func nameOf(line string) string {
	name, _, _ := strings.Cut(keyOf(line), ": ")
	return name
}

// table finds the table in text, the file at path: its rows, and the
// offsets of its first row and of the end of its last.
func (tb Table) table(path, text string) (rows []string, start, end int, err error) {
	header := tb.Header()
	i := strings.Index(text, header+"\n")
	if i < 0 {
		return nil, 0, 0, fmt.Errorf("conftable: %s has no table of the %s rows: want a line\n%s", path, tb.Subject, strings.SplitN(header, "\n", 2)[0])
	}
	start = i + len(header) + 1
	end = start
	for end < len(text) && text[end] == '|' {
		nl := strings.IndexByte(text[end:], '\n')
		if nl < 0 {
			nl = len(text) - end
		}
		rows = append(rows, text[end:end+nl])
		end += nl + 1
	}
	return rows, start, end, nil
}

// write puts line in the table of the file at path: in place of the row
// with its key, or after the rows of its client or library, those kept
// in alphabetical order.
func (tb Table) write(path, line string) error {
	return tb.edit(path, func(rows []string) []string {
		key := keyOf(line)
		if i := slices.IndexFunc(rows, func(l string) bool { return keyOf(l) == key }); i >= 0 {
			rows[i] = line
		} else {
			rows = append(rows, line)
		}
		// The rows of a client or library together, in alphabetical
		// order, the rows of each in the order they came.
		slices.SortStableFunc(rows, func(a, b string) int { return strings.Compare(nameOf(a), nameOf(b)) })
		return rows
	})
}

// edit replaces the rows of the table of the file at path with what f
// makes of them, leaving the rest of the file as it was.
func (tb Table) edit(path string, f func(rows []string) []string) error {
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer file.Close()
	// The packages of the module run at once under go test ./...: one
	// writes at a time.
	if err := lock(file); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(data)
	rows, start, end, err := tb.table(path, text)
	if err != nil {
		return err
	}
	rows = f(rows)
	body := strings.Join(rows, "\n")
	if len(rows) > 0 {
		body += "\n"
	}
	text = text[:start] + body + text[end:]
	if err := file.Truncate(0); err != nil {
		return err
	}
	_, err = file.WriteAt([]byte(text), 0)
	return err
}
