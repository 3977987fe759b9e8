package clockctx_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of retrykit's module, followed by "/".
const module = "github.com/retrykit/retrykit/"

// TestImports keeps the promise of the package doc: production code that
// imports clockctx links nothing of retrykit's test machinery (the fake
// clock, its goroutine-state oracle, package testing and its
// sub-packages).
func TestImports(t *testing.T) {
	if bad := badImports("..", ".", true); len(bad) > 0 {
		t.Errorf("clockctx links more than the standard library, clockwork and stdlib-only internal packages:\n\t%s", strings.Join(bad, "\n\t"))
	}
}

// TestBadImports: the check flags package testing and its sub-packages,
// packages of this module other than internal ones, the oracle's stack
// parser, clockwork beyond clockctx itself, and internal packages that
// break the rule, and allows the rest, test files included.
func TestBadImports(t *testing.T) {
	got := badImports("testdata/imports", "testdata/imports/app", true)
	app := filepath.Join("testdata", "imports", "app", "app.go")
	bad := filepath.Join("testdata", "imports", "internal", "bad", "bad.go")
	want := []string{
		app + ` imports "testing/synctest"`,
		app + ` imports "github.com/retrykit/retrykit/fakeclock"`,
		bad + ` imports "testing", imported by ` + app,
		bad + ` imports "github.com/jonboulle/clockwork", imported by ` + app,
		app + ` imports "github.com/retrykit/retrykit/internal/settle"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("badImports(testdata/imports/app) =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// badImports lists what the non-test Go files of the package in dir import
// beyond what clockctx may link: the standard library but package testing
// and its sub-packages; github.com/jonboulle/clockwork when clockworkOK;
// and internal packages of this module (whose root directory is root) that
// meet the same rule without clockwork, which it checks in turn, but the
// goroutine-state oracle (internal/settle).
func badImports(root, dir string, clockworkOK bool) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return []string{err.Error()}
	}
	var bad []string
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			return append(bad, err.Error())
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			switch {
			case path == "testing" || strings.HasPrefix(path, "testing/"),
				path == module+"internal/settle": // the settle oracle, stdlib-only though it is
			case !strings.Contains(first, "."):
				continue // the standard library
			case path == "github.com/jonboulle/clockwork" && clockworkOK:
				continue
			case strings.HasPrefix(path, module+"internal/"):
				sub := badImports(root, filepath.Join(root, strings.TrimPrefix(path, module)), false)
				for _, b := range sub {
					b = fmt.Sprintf("%s, imported by %s", b, name)
					if !slices.Contains(bad, b) {
						bad = append(bad, b)
					}
				}
				continue
			}
			bad = append(bad, fmt.Sprintf("%s imports %q", name, path))
		}
		checked++
	}
	if checked == 0 {
		bad = append(bad, dir+": no Go source files to check")
	}
	return bad
}
