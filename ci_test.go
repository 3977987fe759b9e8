package retrykit_test

import (
	"os"
	"regexp"
	"testing"
)

// .ci/run runs go test ./... under the newest Go release as a gate of its
// own, and checks that the go command it reached is that release: the
// settle and seqrand read runtime stacks and math/rand's line numbers,
// which a release can move (issue 17).
func TestCIRunsTestsUnderNewestGo(t *testing.T) {
	script, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct{ what, re string }{
		{"the newest release, go1.27.3", `(?m)^NEWEST_GO="\$\{NEWEST_GO:-go1\.27\.3\}"`},
		{"go test ./... run with GOTOOLCHAIN set to it", `(?m)^\s*GOTOOLCHAIN="\$NEWEST_GO" go test \./\.\.\.$`},
		{"a check that the go command it runs is that release", `GOTOOLCHAIN="\$NEWEST_GO" go env GOVERSION`},
		{"a gate of its own", `(?m)^gate "go test \./\.\.\. under \$NEWEST_GO" `},
	} {
		if !regexp.MustCompile(want.re).Match(script) {
			t.Errorf(".ci/run lacks %s (no match for %s)", want.what, want.re)
		}
	}
}
