package conftable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

// A row's key is its client and configuration, not its version: an
// upgrade replaces the row.
func TestKeyOf(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"| openai-go (v3.98.0): `NewClient` defaults | claims | 1 / 2 / 3 |", "openai-go: `NewClient` defaults"},
		{"| openai-go (v3.99.0): `NewClient` defaults | other claims | 4 / 5 / 6 |", "openai-go: `NewClient` defaults"},
		{"| resty (v2.17.2): `SetRetryCount(3)`, `err != nil \\|\\| 429` | x |", "resty: `SetRetryCount(3)`, `err != nil \\|\\| 429`"},
		{"| backoff v4 (v4.3.0): `WithMaxRetries(b, 5)` | x |", "backoff v4: `WithMaxRetries(b, 5)`"},
	} {
		if got := keyOf(tc.line); got != tc.want {
			t.Errorf("keyOf(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// write replaces the row with the line's key where it is, puts a new one
// after its client's rows, the clients in alphabetical order, and leaves
// the rest of the file as it was.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# title\n\n" + SDKs.Header() + "\n| a (v1): x | old |\n| b (v1): y | b |\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"| a (v2): x | new |", "| c (v1): z | c |", "| a (v1): w | a2 |"} {
		if err := SDKs.write(path, line); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "# title\n\n" + SDKs.Header() + "\n| a (v2): x | new |\n| a (v1): w | a2 |\n| b (v1): y | b |\n| c (v1): z | c |\n\nafter\n"
	if string(got) != want {
		t.Errorf("after write:\n%s\nwant:\n%s", got, want)
	}
}

// A file without the table is an error that names the header it wants.
func TestNoTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	// The other table is not this one.
	if err := os.WriteFile(path, []byte("# nothing here\n\n"+Libraries.Header()+"\n| a (v1): x | y |\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := SDKs.write(path, "| a (v1): x | y |")
	if err == nil || !strings.Contains(err.Error(), "has no table of the Client rows") || !strings.Contains(err.Error(), "| Client (version): configuration |") {
		t.Errorf("write to a file without the table: %v, want an error naming the table's header", err)
	}
}

// Render counts the properties by status and the checks by Names, gives
// one line per reason with every waived check of it, and escapes pipes.
func TestRender(t *testing.T) {
	r := &conformance.Report{Shape: "client", Results: []conformance.Result{
		{Property: "FirstAttemptImmediate", Verdict: conformance.Passed},
		{Property: "CancelDuringWait", Verdict: conformance.Waived, Message: "sleeps | at x.go:1\nthe failure"},
		{Property: "DeadlineCutsWait", Verdict: conformance.Waived, Message: "sleeps | at x.go:1\nanother failure"},
		{Property: "BudgetHonoured", Verdict: conformance.Skipped, Message: "no Budget"},
	}}
	row := Row{Name: "c", Config: "defaults", Claims: "claims"}
	got := SDKs.Render(row, "v1.0.0", r)
	want := "| c (v1.0.0): defaults | claims | 1 / 2 / 1 | 1 / 2 / 1 | `CancelDuringWait`, `DeadlineCutsWait`: sleeps \\| at x.go:1 | `BudgetHonoured` |"
	if got != want {
		t.Errorf("Render:\n got %s\nwant %s", got, want)
	}
	if lib := Libraries.Render(row, "v1.0.0", r); lib != got {
		t.Errorf("Render differs between tables:\n%s\n%s", got, lib)
	}
}

// The tables differ in the first word of their header only: the same
// columns, the subject of the rows first.
func TestHeader(t *testing.T) {
	sdk, lib := SDKs.Header(), Libraries.Header()
	if !strings.HasPrefix(sdk, "| Client (version): configuration | What its docs and source claim |") {
		t.Errorf("SDKs.Header() = %q", sdk)
	}
	if !strings.HasPrefix(lib, "| Library (version): configuration | What its docs and source claim |") {
		t.Errorf("Libraries.Header() = %q", lib)
	}
	if strings.Replace(lib, "Library", "Client", 1) != sdk {
		t.Errorf("the headers differ beyond their subject:\n%s\n%s", sdk, lib)
	}
	for _, h := range []string{sdk, lib} {
		head, delim, _ := strings.Cut(h, "\n")
		if strings.Count(head, "|") != strings.Count(delim, "|") {
			t.Errorf("header %q and delimiter %q have different columns", head, delim)
		}
	}
}

// Two tables in one file are found by their headers: writing a row of
// one leaves the other as it was, even a row of the same key.
func TestTwoTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	before := "# both\n\n" + Libraries.Header() + "\n| lib (v1): x | l |\n\nbetween\n\n" + SDKs.Header() + "\n| sdk (v1): y | s |\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Libraries.write(path, "| lib (v2): x | l2 |"); err != nil {
		t.Fatal(err)
	}
	if err := SDKs.write(path, "| lib (v3): x | s2 |"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "# both\n\n" + Libraries.Header() + "\n| lib (v2): x | l2 |\n\nbetween\n\n" + SDKs.Header() + "\n| lib (v3): x | s2 |\n| sdk (v1): y | s |\n"
	if string(data) != want {
		t.Errorf("after writing both tables:\n%s\nwant:\n%s", data, want)
	}
	for _, tc := range []struct {
		tb   Table
		want []string
	}{
		{Libraries, []string{"| lib (v2): x | l2 |"}},
		{SDKs, []string{"| lib (v3): x | s2 |", "| sdk (v1): y | s |"}},
	} {
		rows, _, _, err := tc.tb.table(path, string(data))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s rows: %q, want %q", tc.tb.Subject, rows, tc.want)
		}
	}
}

// A check of a row counts for its table only: the same key in the other
// table is still unchecked.
func TestCheckedKey(t *testing.T) {
	if SDKs.checkedKey("a: x") == Libraries.checkedKey("a: x") {
		t.Error("the two tables share their checked keys")
	}
	other := Table{Subject: "Client", README: "elsewhere.md", GoMod: "../go.mod"}
	if SDKs.checkedKey("a: x") == other.checkedKey("a: x") {
		t.Error("tables in two files share their checked keys")
	}
}

// The version is read from the table's go.mod, in both forms of require;
// a replaced module (wherever the replace is) or a missing one is an
// error.
func TestModuleVersion(t *testing.T) {
	gomod := filepath.Join(t.TempDir(), "go.mod")
	text := "module example.com/m\n\ngo 1.26\n\nrequire example.com/one v1.2.3\n\nrequire (\n\texample.com/two/v2 v2.0.1\n\texample.com/local v0.0.0\n\texample.com/ind v0.1.0 // indirect\n)\n\nreplace example.com/local => ../local\n"
	if err := os.WriteFile(gomod, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := Table{Subject: "Library", README: "README.md", GoMod: gomod}
	for _, tc := range []struct{ path, want, err string }{
		{"example.com/one", "v1.2.3", ""},
		{"example.com/two/v2", "v2.0.1", ""},
		{"example.com/ind", "v0.1.0", ""},
		{"example.com/local", "", "replaces example.com/local"},
		{"example.com/none", "", "requires no example.com/none"},
	} {
		got, err := tb.moduleVersion(tc.path)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("moduleVersion(%q) = %q, %v; want %q, an error with %q", tc.path, got, err, tc.want, tc.err)
		}
	}
}

// The stale rows are those of the name given that no test checked; the
// rows of other names are theirs to check.
func TestStaleRows(t *testing.T) {
	rows := []string{"| a (v1): x | 1 |", "| a (v1): y | 2 |", "| ab (v1): x | 3 |", "| b (v1): x | 4 |"}
	isChecked := func(key string) bool { return key == "a: x" }
	got := staleRows(rows, "a", isChecked)
	if want := []string{"| a (v1): y | 2 |"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("staleRows = %q, want %q", got, want)
	}
	if got := staleRows(rows, "c", isChecked); len(got) != 0 {
		t.Errorf("staleRows of a name without rows = %q, want none", got)
	}
}

// Main looks for stale rows only when every conformance test ran, as
// often as -count says: the flake hunt's -skip Conform and a -run of
// one test or property leave rows unchecked that are not stale.
func TestFullRun(t *testing.T) {
	for _, tc := range []struct {
		run, skip, list string
		want            bool
	}{
		{"", "", "", true},
		{"Conform", "", "", true},
		{"", "Conform", "", false},
		{"", "^TestPlantedBugs$", "", false},
		{"TestConformanceDefaults", "", "", false},
		{"Conform/CapReached", "", "", false},
		{"^$", "", "", false},
		{"", "", "^Fuzz", false},
	} {
		if got := fullRun(tc.run, tc.skip, tc.list); got != tc.want {
			t.Errorf("fullRun(run %q, skip %q, list %q) = %v, want %v", tc.run, tc.skip, tc.list, got, tc.want)
		}
	}
}

// Check leaves a row alone when -run or -skip selects properties: the
// Report holds those only.
func TestPartial(t *testing.T) {
	for _, tc := range []struct {
		run, skip string
		want      bool
	}{
		{"", "", false},
		{"Conform", "", false},
		{"TestConformanceDefaults", "", false},
		{"", "Conform", false},
		{"Conform/CapReached", "", true},
		{"", "Conform/NoSpikeAtCap", true},
	} {
		if got := partial(tc.run, tc.skip); got != tc.want {
			t.Errorf("partial(run %q, skip %q) = %v, want %v", tc.run, tc.skip, got, tc.want)
		}
	}
}
