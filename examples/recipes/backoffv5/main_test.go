package backoffv5_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks that no goroutine outlives the tests. The recipe has no
// conformance test, so the README's table of libraries has no row of
// backoff v5: Main fails the tests on one, and lets
// go test ./... -run Conform -update run in this package too.
func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.Libraries.Main(m, "backoff v5")) }
