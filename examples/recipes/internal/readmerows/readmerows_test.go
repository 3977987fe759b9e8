package readmerows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/examples/recipes/internal/readmerows"
)

// fakeT records what Check reports; Fatalf ends the check as t.Fatalf would.
type fakeT struct{ errs []string }

type fatal struct{}

func (f *fakeT) Helper()                        {}
func (f *fakeT) Errorf(format string, a ...any) { f.errs = append(f.errs, fmt.Sprintf(format, a...)) }
func (f *fakeT) Fatalf(format string, a ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, a...))
	panic(fatal{})
}

// check runs Check for lib's rows `A` and `B` from a recipe directory
// whose module requires example.com/lib at v1.2.0 and whose README is
// readme, and returns what it reported.
func check(t *testing.T, readme string) []string {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module m\n\nrequire example.com/lib v1.2.0\n", "README.md": readme} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "recipe"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "recipe"))
	f := &fakeT{}
	func() {
		defer func() {
			if r := recover(); r != nil && r != (fatal{}) {
				panic(r)
			}
		}()
		readmerows.Check(f, "## gRPC", "lib", "example.com/lib", []string{"`A`", "`B`"})
	}()
	return f.errs
}

// above is a table before the section, whose rows of lib do not count.
const above = "# Recipes\n\n| lib (v1.0.0): `old` | - |\n\n## gRPC\n\n"

func TestCheckPasses(t *testing.T) {
	if errs := check(t, above+"| lib (v1.2.0): `A` | none |\n| lib (v1.2.0): `B` | none |\n"); errs != nil {
		t.Errorf("the rows the recipe tests, at go.mod's version: %q, want no error", errs)
	}
}

func TestCheckFails(t *testing.T) {
	for _, c := range []struct{ name, readme, want string }{
		{"a row missing", above + "| lib (v1.2.0): `A` | none |\n", "rows of lib v1.2.0 are for\n[\"`A`\"]"},
		{"out of order", above + "| lib (v1.2.0): `B` | none |\n| lib (v1.2.0): `A` | none |\n", "are for\n[\"`B`\" \"`A`\"]"},
		{"another version", above + "| lib (v1.2.0): `A` | none |\n| lib (v1.2.0): `B` | none |\n| lib (v1.1.0): `A` | none |\n", "a row of lib at another version than go.mod's v1.2.0: | lib (v1.1.0): `A` |"},
		{"no section", "# Recipes\n", `../README.md has no section "## gRPC"`},
	} {
		errs := check(t, c.readme)
		if len(errs) != 1 || !strings.Contains(errs[0], c.want) {
			t.Errorf("%s: %q, want one error containing %q", c.name, errs, c.want)
		}
	}
}
