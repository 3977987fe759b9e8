package retryafter_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// Vector.Judge judges one vector: nil for a right answer, the got and
// want for a wrong one, a panic reported instead of crashing the test.
func TestVectorJudge(t *testing.T) {
	var seconds retryafter.Vector
	for _, c := range retryafter.Corpus() {
		if c.ID == "RA001" {
			seconds = c
		}
	}
	if err := seconds.Judge(retryafter.Parse); err != nil {
		t.Errorf("Parse on RA001: %v", err)
	}
	zero := func(string, time.Time) (time.Duration, error) { return 0, nil }
	if err := seconds.Judge(zero); err == nil || err.Error() != `RA001 "120": got 0s, want 2m: RFC example: 2 minutes.` {
		t.Errorf("a parser that returns 0 on RA001: %v", err)
	}
	boom := func(string, time.Time) (time.Duration, error) { panic("boom") }
	if err := seconds.Judge(boom); err == nil || err.Error() != `RA001 "120": got panic: boom, want 2m: RFC example: 2 minutes.` {
		t.Errorf("a parser that panics: %v", err)
	}
}
