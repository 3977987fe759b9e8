// Package readmerows checks the hand-written rows of the recipes' README:
// one row per configuration a recipe tests, at the version its go.mod
// requires, and no other row of that library.
package readmerows

import (
	"os"
	"slices"
	"strings"
)

// T is the part of *testing.T that Check uses.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// Check fails t unless the section of ../README.md headed section holds,
// for the library name, exactly the rows want, in order, each at the
// version of module that ../go.mod requires ("| name (v1.2.3): config |
// ..."): the recipe's package directory is the working directory, as in
// its tests. A row of name at another version fails too.
func Check(t T, section, name, module string, want []string) {
	t.Helper()
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatalf("%v", err)
	}
	version := ""
	for line := range strings.SplitSeq(string(gomod), "\n") {
		// "\tmodule v1.2.3" in a require block, or "require module v1.2.3".
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == module {
			version = f[1]
		}
	}
	if version == "" {
		t.Fatalf("../go.mod requires no %s", module)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatalf("%v", err)
	}
	_, body, found := strings.Cut(string(readme), "\n"+section+"\n")
	if !found {
		t.Fatalf("../README.md has no section %q", section)
	}
	var got []string
	for line := range strings.SplitSeq(body, "\n") {
		if config, ok := strings.CutPrefix(line, "| "+name+" ("+version+"): "); ok {
			cell, _, _ := strings.Cut(config, " | ")
			got = append(got, cell)
		} else if strings.HasPrefix(line, "| "+name+" (") {
			t.Errorf("a row of %s at another version than go.mod's %s: %s", name, version, line)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the README's rows of %s %s are for\n%q\nwant one for each configuration the recipe tests, in order:\n%q", name, version, got, want)
	}
}
