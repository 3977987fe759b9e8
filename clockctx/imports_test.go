package clockctx_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlyStdlibAndClockwork keeps the promise of the package doc:
// production code that imports clockctx links nothing of retrykit's test
// machinery.
func TestImportsOnlyStdlibAndClockwork(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.Contains(first, ".") && path != "github.com/jonboulle/clockwork" {
				t.Errorf("%s imports %q, want only the standard library and github.com/jonboulle/clockwork", name, path)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no source files found; this test would prove nothing")
	}
}
