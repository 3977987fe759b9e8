// Package conftable renders the table of the SDK clients' conformance runs
// in examples/recipes/README.md, and pins it: each client's conformance
// test passes its [Row] and the [conformance.Report] of its run to
// [Check], which fails the test unless the README's table holds that row
// exactly as the run renders it. With -update it writes the row instead.
// [Main] fails a client's tests on a row of that client no test checked
// (with -update, it removes it).
//
// A row is keyed by its first cell, the client and its configuration;
// the version in it is the one the module's go.mod requires (go mod tidy
// keeps it the version the build selects), so an upgrade changes the
// table too.
package conftable

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

var update = flag.Bool("update", false, "write the rows of the SDK clients' table in examples/recipes/README.md instead of checking them")

// README is the file that holds the table, from the directory of a
// client's package (examples/sdks/<client>), where go test runs it.
const README = "../../recipes/README.md"

// Header is the table's header and delimiter row: its first line is how
// the table is found in the README.
const Header = "| Client (version): configuration | What its docs and source claim | Properties: pass / fail (waived) / skip | Checks: pass / fail (waived) / skip | Gaps: the waivers, each with its source line | Skipped |\n" +
	"|---|---|---|---|---|---|"

// Row is one configuration of one client in the table.
type Row struct {
	// Module is the client's module path, "github.com/openai/openai-go/v3":
	// its version is read from the module's go.mod.
	Module string
	// Name is the client's name as users know it: "openai-go".
	Name string
	// Config is the configuration the test runs, in Markdown:
	// "`NewClient` defaults".
	Config string
	// Claims is what the client's docs and source claim of it, the Spec
	// of the test in words, in one line of Markdown.
	Claims string
}

// Check renders row with the figures of r and fails t unless the README's
// table holds exactly that row (with -update, it writes it there).
func Check(t *testing.T, row Row, r *conformance.Report) {
	t.Helper()
	if r == nil {
		t.Fatal("conftable: no Report: the suite did not run (its failure says why)")
	}
	if !r.Passed() {
		t.Fatal("conftable: the run has failures that are not waived, or stale waivers: the table shows only a run whose every failure is waived (the suite's failures above say what to fix)")
	}
	version, err := moduleVersion(row.Module)
	if err != nil {
		t.Fatal(err)
	}
	line := Render(row, version, r)
	checked.Store(keyOf(line), true)
	if *update {
		if err := write(README, line); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(README)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, _, err := table(string(data))
	if err != nil {
		t.Fatal(err)
	}
	key := keyOf(line)
	var got []string
	for _, l := range rows {
		if keyOf(l) == key {
			got = append(got, l)
		}
	}
	switch {
	case len(got) == 0:
		t.Errorf("conftable: %s has no row for %s; want\n%s\n(go test ./... -run Conform -update, in examples/sdks, writes it)", README, key, line)
	case len(got) > 1:
		t.Errorf("conftable: %s has %d rows for %s, want one:\n%s", README, len(got), key, strings.Join(got, "\n"))
	case got[0] != line:
		t.Errorf("conftable: the row of %s in %s is not what the run found:\n got: %s\nwant: %s\n(go test ./... -run Conform -update, in examples/sdks, writes it)", key, README, got[0], line)
	}
}

// GoMod is the module's go.mod, from the directory of a client's package.
const GoMod = "../go.mod"

// Pin fails t unless the properties and cases of r that were waived and
// skipped are exactly waived and skipped, in the suite's order: the list
// of a client's gaps, and of what its run could not check, as literals of
// its test.
func Pin(t *testing.T, r *conformance.Report, waived, skipped []string) {
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

// checked holds the key of every row Check was called for in this
// process.
var checked sync.Map

// Main wraps the m of a client's TestMain so that, after the tests, a row
// of that client in the README that no test checked fails the run: a
// configuration removed from the tests leaves no row behind. It checks
// only when every conformance test ran (no -skip, and -run unset or
// "Conform").
//
//	func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.Main(m, "openai-go")) }
func Main(m *testing.M, client string) interface{ Run() int } {
	return mainRun{m, client}
}

type mainRun struct {
	m      *testing.M
	client string
}

func (mr mainRun) Run() int {
	code := mr.m.Run()
	run, skip := flag.Lookup("test.run"), flag.Lookup("test.skip")
	if code != 0 || run == nil || skip == nil || skip.Value.String() != "" || (run.Value.String() != "" && run.Value.String() != "Conform") {
		return code
	}
	stale := func(l string) bool {
		_, ok := checked.Load(keyOf(l))
		return !ok && clientOf(l) == mr.client
	}
	if *update {
		if err := edit(README, func(rows []string) []string { return slices.DeleteFunc(rows, stale) }); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return code
	}
	data, err := os.ReadFile(README)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rows, _, _, err := table(string(data))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, l := range rows {
		if stale(l) {
			fmt.Fprintf(os.Stderr, "conftable: %s has a row for %s that no test checked: remove it, or the test of that configuration is gone\n", README, keyOf(l))
			code = 1
		}
	}
	return code
}

// moduleVersion is the version of module path that the module's go.mod
// requires. (A test binary carries no build information of its
// dependencies, so go.mod is where the version is read.)
func moduleVersion(path string) (string, error) {
	data, err := os.ReadFile(GoMod)
	if err != nil {
		return "", fmt.Errorf("conftable: reading the version of %s: %w", path, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		switch {
		case len(f) >= 2 && f[0] == path:
			return f[1], nil
		case len(f) >= 3 && f[0] == "replace" && f[1] == path:
			return "", fmt.Errorf("conftable: %s replaces %s: the table gives versions from the module proxy", GoMod, path)
		}
	}
	return "", fmt.Errorf("conftable: %s requires no %s: Row.Module names the client's module", GoMod, path)
}

// Render is the table's row for row, of the client at version, with the
// figures of r.
func Render(row Row, version string, r *conformance.Report) string {
	props := map[conformance.Status]int{}
	for _, res := range r.Results {
		props[res.Status]++
	}
	names := func(st conformance.Status) []string { return r.Names(st) }
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

// keyOf is a row's first cell up to the version: "| openai-go", then
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

// clientOf is a row's client: its first cell up to the version.
func clientOf(line string) string {
	name, _, _ := strings.Cut(keyOf(line), ": ")
	return name
}

// table finds the table in text: its rows, and the offsets of its first
// row and of the end of its last.
func table(text string) (rows []string, start, end int, err error) {
	i := strings.Index(text, Header+"\n")
	if i < 0 {
		return nil, 0, 0, fmt.Errorf("conftable: %s has no table of the SDK clients: want a line\n%s", README, strings.SplitN(Header, "\n", 2)[0])
	}
	start = i + len(Header) + 1
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
// with its key, or after the rows of its client, the clients kept in
// alphabetical order.
func write(path, line string) error {
	return edit(path, func(rows []string) []string {
		key := keyOf(line)
		if i := slices.IndexFunc(rows, func(l string) bool { return keyOf(l) == key }); i >= 0 {
			rows[i] = line
		} else {
			rows = append(rows, line)
		}
		// The rows of a client together, the clients in alphabetical
		// order, each client's rows in the order they came.
		slices.SortStableFunc(rows, func(a, b string) int { return strings.Compare(clientOf(a), clientOf(b)) })
		return rows
	})
}

// edit replaces the rows of the table of the file at path with what f
// makes of them, leaving the rest of the file as it was.
func edit(path string, f func(rows []string) []string) error {
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
	rows, start, end, err := table(text)
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
