package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// write makes the files of a module in a temporary directory and returns it.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Every kind of link the package doc promises to resolve resolves, and
// each kind of dangling one is reported with its file and line.
func TestDanglingLinks(t *testing.T) {
	dir := write(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": `// Package a links [T], [T.M], [T.Field], [I.Do], [V], [b.F], [b.S.Size] and [fmt.Println].
package a

import (
	"fmt"

	"example.com/m/b"
)

// T is linked from [Missing] and [T.Nope].
type T struct{ Field int }

// M links [b.Gone].
func (T) M() { fmt.Println(b.F) }

// I has a method.
type I interface{ Do() }

// V is a variable.
var V = 1
`,
		"b/b.go": `// Package b is linked to.
package b

// F is a constant.
const F = 2

// S has a field.
type S struct{ Size int }
`,
		"a/a_test.go": "package a\n\n// [Ignored] in a test file.\nvar _ = 0\n",
	})
	t.Chdir(dir)
	var out strings.Builder
	n, err := run(&out, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	want := "a/a.go:10: [Missing] names nothing\n" +
		"a/a.go:10: [T.Nope] names nothing\n" +
		"a/a.go:13: [example.com/m/b.Gone] names nothing\n"
	if n != 3 || out.String() != want {
		t.Errorf("run = %d, printed:\n%s\nwant 3, printed:\n%s", n, out.String(), want)
	}
}

// A pattern that matches nothing readable is an error, not a pass.
func TestBadPattern(t *testing.T) {
	t.Chdir(write(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.26\n"}))
	if _, err := run(&strings.Builder{}, []string{"./nope"}); err == nil {
		t.Error("run(./nope) = nil error, want go list's")
	}
}

// Plain-text names qualified by a package of the module are checked in
// comments and in Markdown: a missing name, a type's missing member;
// members of values, names of other packages and of the standard library,
// file names and import paths are left alone.
func TestPlainNames(t *testing.T) {
	dir := write(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.26\n",
		"a/a.go": `// Package a: a.T, a.T.M, a.V.Add, fmt.Println, x.go, example.com/m/b.Nope and a.Gone.
package a

// T says a.T.Nope and ` + "`a.Missing`" + ` in backquotes.
type T struct{}

// M is a method.
func (T) M() {}

// V is a value.
var V = 1
`,
		"b/b.go":    "// Package b says a.T too.\npackage b\n",
		"README.md": "# m\n\nUse `a.T.M` and b.Old.\n\n```go\nx := a.T{}\n```\n",
	})
	t.Chdir(dir)
	var out strings.Builder
	n, err := runWith(&out, options{patterns: []string{"./..."}, md: "README.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := "README.md:3: b.Old names nothing\n" +
		"a/a.go:1: a.Gone names nothing\n" +
		"a/a.go:4: a.Missing names nothing\n" +
		"a/a.go:4: a.T.Nope names nothing\n"
	if n != 4 || out.String() != want {
		t.Errorf("runWith = %d, printed:\n%s\nwant 4, printed:\n%s", n, out.String(), want)
	}
	if _, err := runWith(&strings.Builder{}, options{patterns: []string{"./..."}, md: "NOPE*.md"}); err == nil {
		t.Error("-md matching no file: no error, want one")
	}
}
