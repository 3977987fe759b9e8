package grpcmiddleware_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks that no goroutine outlives the tests. go-grpc-middleware
// has no conformance entry yet, so the README's table of libraries has no
// row of it: Main fails the tests on one, and lets
// go test ./... -run Conform -update run in this package too.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(conftable.Libraries.Main(m, "go-grpc-middleware v2"))
}
