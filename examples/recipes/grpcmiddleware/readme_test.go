package grpcmiddleware_test

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestREADME: the README's table of gRPC recipes, written by hand (the
// section "## gRPC"; the conformance table above it is generated), holds a
// row for each configuration this recipe's TestRecipe tests check, at the
// version go.mod requires, and no other row of its library.
func TestREADME(t *testing.T) {
	const name, module = "go-grpc-middleware v2", "github.com/grpc-ecosystem/go-grpc-middleware/v2"
	want := []string{
		"`UnaryClientInterceptor()` defaults",
		"`WithMax(4)`, `WithCodes(codes.Unavailable)`",
		"`WithBackoff(BackoffExponential(100ms))`",
		"`WithPerRetryTimeout(1s)`, `WithBackoff(BackoffLinear(100ms))`",
	}
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	version := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == module {
			version = f[1]
		}
	}
	if version == "" {
		t.Fatalf("../go.mod requires no %s", module)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	_, section, found := strings.Cut(string(readme), "\n## gRPC\n")
	if !found {
		t.Fatal(`../README.md has no section "## gRPC"`)
	}
	for _, line := range strings.Split(section, "\n") {
		if config, ok := strings.CutPrefix(line, "| "+name+" ("+version+"): "); ok {
			got = append(got, config[:strings.Index(config, " | ")])
		} else if strings.HasPrefix(line, "| "+name+" (") {
			t.Errorf("a row of %s at another version than go.mod's %s: %s", name, version, line)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the README's rows of %s %s are for\n%q\nwant one for each configuration the recipe tests, in order:\n%q", name, version, got, want)
	}
}
