package retrykit_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of the module, followed by "/".
const module = "github.com/retrykit/retrykit/"

// layers are the packages of the main module, bottom up, as the package
// doc of the root says: a package imports only packages of the layers
// below its own (and, within its layer, none). examples/... sit on top and
// may import anything of the module.
var layers = [][]string{
	{"internal/epoch", "internal/satdur", "internal/schedfmt", "internal/timerctx", "internal/leakhint", "internal/golden", "internal/faket"},
	{"internal/goheader", "internal/schedcheck", "internal/chart", "internal/circuit", "retrytest/conformance/internal/verdict"},
	{"internal/settle"},
	{"seqrand", "retryafter", "clockctx", "recorder"},
	{"fakeclock"},
	{"retrytest"},
	{"httpscript", "bubble", "retrytest/policysim"},
	{"matchers", "retrytest/conformance"},
}

// neverBelow are packages that must not depend on others at all, however
// far down: what a package links that it does not need.
var neverBelow = map[string][]string{
	// A schedule check needs neither the fake clock nor the settle oracle.
	"retrytest": {"fakeclock", "internal/settle"},
	// Production code links none of the test machinery.
	"clockctx":   {"fakeclock", "internal/settle", "internal/goheader"},
	"retryafter": {"fakeclock", "internal/settle", "internal/goheader"},
	// The recorder records; it does not settle.
	"recorder": {"internal/settle", "fakeclock"},
}

// thirdParty are the modules outside the standard library that the main
// module may import (DESIGN.md: clockwork, testify, gomega and goleak).
var thirdParty = []string{"github.com/jonboulle/clockwork", "github.com/stretchr/testify", "github.com/onsi/gomega", "go.uber.org/goleak"}

// imports maps each package of the main module (relative to the module,
// "" for the root) to what its non-test files import.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			if base := d.Name(); path != "." && (base == "testdata" || strings.HasPrefix(base, ".") || base == "tools") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if pkg == "." {
			pkg = ""
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(out[pkg], p) {
				out[pkg] = append(out[pkg], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 20 {
		t.Fatalf("found %d packages, want the module's (run from its root)", len(out))
	}
	return out
}

// layerOf is the layer of a package of the module; -1 for one in no layer.
func layerOf(pkg string) int {
	for i, l := range layers {
		if slices.Contains(l, pkg) {
			return i
		}
	}
	return -1
}

// TestLayers: every package of the main module is in a layer (or under
// examples/), imports only down the layers, links none of what it must
// never link, and imports from outside the standard library only the four
// modules the main module depends on.
func TestLayers(t *testing.T) {
	all := imports(t)
	for pkg, ims := range all {
		mine := layerOf(pkg)
		top := pkg == "" || strings.HasPrefix(pkg, "examples/")
		if mine < 0 && !top {
			t.Errorf("package %s is in no layer: place it in the layers of layers_test.go and of the root package doc", pkg)
			continue
		}
		for _, im := range ims {
			first, _, _ := strings.Cut(im, "/")
			switch {
			case strings.HasPrefix(im, module):
				dep := strings.TrimPrefix(im, module)
				if top {
					continue
				}
				if l := layerOf(dep); l < 0 || l >= mine {
					t.Errorf("%s imports %s, which is not in a layer below its own: imports go down the layers (root package doc)", pkg, dep)
				}
			case !strings.Contains(first, "."):
				// the standard library
			case !slices.ContainsFunc(thirdParty, func(m string) bool { return im == m || strings.HasPrefix(im, m+"/") }):
				t.Errorf("%s imports %s: the main module depends on %s only; put it in a nested module", pkg, im, strings.Join(thirdParty, ", "))
			}
		}
	}
	for pkg, never := range neverBelow {
		deps := closure(all, pkg)
		for _, n := range never {
			if slices.Contains(deps, n) {
				t.Errorf("%s depends on %s (through %s): it must not", pkg, n, strings.Join(path(all, pkg, n), " → "))
			}
		}
	}
}

// closure is every package of the module that pkg depends on.
func closure(all map[string][]string, pkg string) []string {
	var out []string
	var walk func(p string)
	walk = func(p string) {
		for _, im := range all[p] {
			dep, ok := strings.CutPrefix(im, module)
			if ok && !slices.Contains(out, dep) {
				out = append(out, dep)
				walk(dep)
			}
		}
	}
	walk(pkg)
	return out
}

// path is a chain of imports from pkg to dep, for the failure's text.
func path(all map[string][]string, pkg, dep string) []string {
	for _, im := range all[pkg] {
		next, ok := strings.CutPrefix(im, module)
		if !ok {
			continue
		}
		if next == dep {
			return []string{pkg, dep}
		}
		if slices.Contains(closure(all, next), dep) {
			return append([]string{pkg}, path(all, next, dep)...)
		}
	}
	return []string{pkg, "?", dep}
}

// TestLayersCatchAnImportUp: the check above fails on an import up the
// layers, on a package in no layer, on a forbidden dependency however far
// down, and on a fifth module.
func TestLayersCatchAnImportUp(t *testing.T) {
	all := map[string][]string{
		"retrytest": {module + "recorder"},
		"recorder":  {module + "internal/settle"},
		"seqrand":   {module + "retrytest", "github.com/google/uuid"},
	}
	if got := path(all, "retrytest", "internal/settle"); !slices.Equal(got, []string{"retrytest", "recorder", "internal/settle"}) {
		t.Errorf("path = %v, want retrytest → recorder → internal/settle", got)
	}
	if l := layerOf("seqrand"); l >= layerOf("retrytest") {
		t.Errorf("seqrand's layer %d is not below retrytest's %d", l, layerOf("retrytest"))
	}
	if layerOf("nope") != -1 {
		t.Error("a package in no layer has a layer")
	}
	if !slices.Contains(closure(all, "retrytest"), "internal/settle") {
		t.Error("closure misses a dependency two imports down")
	}
}

// TestPackageDocsAreShort: every package doc of the module, nested modules
// included, holds to 80 lines; the detail goes on the declarations and in
// docs/design.md.
func TestPackageDocsAreShort(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Doc == nil {
			return nil
		}
		if n := len(f.Doc.List); n > 80 {
			t.Errorf("%s: the package doc is %d lines, want at most 80", path, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
