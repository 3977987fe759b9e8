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
	before := "# title\n\n" + Header + "\n| a (v1): x | old |\n| b (v1): y | b |\n\nafter\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"| a (v2): x | new |", "| c (v1): z | c |", "| a (v1): w | a2 |"} {
		if err := write(path, line); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "# title\n\n" + Header + "\n| a (v2): x | new |\n| a (v1): w | a2 |\n| b (v1): y | b |\n| c (v1): z | c |\n\nafter\n"
	if string(got) != want {
		t.Errorf("after write:\n%s\nwant:\n%s", got, want)
	}
}

// A file without the table is an error that names the header it wants.
func TestNoTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte("# nothing here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := write(path, "| a (v1): x | y |")
	if err == nil || !strings.Contains(err.Error(), "has no table of the SDK clients") {
		t.Errorf("write to a file without the table: %v, want an error naming the table", err)
	}
}

// Render counts the properties by status and the checks by Names, gives
// one line per reason with every waived check of it, and escapes pipes.
func TestRender(t *testing.T) {
	r := &conformance.Report{Shape: "client", Results: []conformance.Result{
		{Property: "FirstAttemptImmediate", Status: conformance.Passed},
		{Property: "CancelDuringWait", Status: conformance.Waived, Message: "sleeps | at x.go:1\nthe failure"},
		{Property: "DeadlineCutsWait", Status: conformance.Waived, Message: "sleeps | at x.go:1\nanother failure"},
		{Property: "BudgetHonoured", Status: conformance.Skipped, Message: "no Budget"},
	}}
	got := Render(Row{Name: "c", Config: "defaults", Claims: "claims"}, "v1.0.0", r)
	want := "| c (v1.0.0): defaults | claims | 1 / 2 / 1 | 1 / 2 / 1 | `CancelDuringWait`, `DeadlineCutsWait`: sleeps \\| at x.go:1 | `BudgetHonoured` |"
	if got != want {
		t.Errorf("Render:\n got %s\nwant %s", got, want)
	}
}
