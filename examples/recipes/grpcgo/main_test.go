package grpcgo_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks that no goroutine outlives the tests, and fails them on
// a row of grpc-go in the README's table of libraries that no conformance
// test checked (go test ./... -run Conform -update removes it).
func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.Libraries.Main(m, "grpc-go")) }
