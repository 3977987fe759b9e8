package gobreaker_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks that no goroutine outlives the tests, and that every row
// of gobreaker in the README's table of libraries is one a test checked.
func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.Libraries.Main(m, "gobreaker")) }
