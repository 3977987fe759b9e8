// Package golden compares test output with files under testdata, for the
// golden tests that pin retrykit's failure messages. It is imported only by
// tests.
//
// Run the tests with -update to rewrite the files from the current output,
// then read the diff before committing it.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// T is the part of testing.TB that Check uses.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Check compares got with testdata/<name>.golden, or rewrites that file
// when the test binary runs with -update. A mismatch fails the test with a
// line diff (-want +got).
func Check(t T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run go test -update to create it)", err)
	}
	if d := Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

// Diff returns a line diff of want and got, "-" marking lines only in want
// and "+" lines only in got, or "" when they are equal.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// Longest common subsequence over lines; golden files are small.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			out.WriteString("- " + a[i] + "\n")
			i++
		default:
			out.WriteString("+ " + b[j] + "\n")
			j++
		}
	}
	return out.String()
}
