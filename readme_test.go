package retrykit_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every Go block in README.md names, in an HTML comment on the line before
// it, the compiled file it is copied from:
//
//	<!-- copied from readme_example_test.go -->
//	```go
//	...
//	```
//
// TestREADMEBlocksAreCompiled fails when a block is no longer in its file,
// so the README cannot drift from code that builds and passes.
func TestREADMEBlocksAreCompiled(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)(?:<!-- copied from (\\S+) -->\\n)?```go\\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go blocks; this test would prove nothing")
	}
	for i, b := range blocks {
		from, code := b[1], b[2]
		if from == "" {
			t.Errorf("README.md Go block %d has no <!-- copied from FILE --> line before it:\n%s", i+1, code)
			continue
		}
		src, err := os.ReadFile(from)
		if err != nil {
			t.Errorf("README.md Go block %d: %v", i+1, err)
			continue
		}
		if !strings.Contains(string(src), code) {
			t.Errorf("README.md Go block %d is not in %s any more; copy it again:\n%s", i+1, from, code)
		}
	}
}

// The long outputs and tables live in the examples' own READMEs and are
// pinned there: examples/fleetsim/README.md by the fleetsim tests
// (TestREADMEShowsDefaultOutput, TestBreakersOutput, TestREADMEPresetTable,
// TestTogetherFailsTheSeedsFix, TestREADMEBlocksAreCompiled),
// examples/jobs/README.md by riverjobs' TestREADME, and
// examples/recipes/README.md by the recipes' tests.
