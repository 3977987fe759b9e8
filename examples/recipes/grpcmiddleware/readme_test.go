package grpcmiddleware_test

import (
	"testing"

	"github.com/retrykit/retrykit/examples/recipes/internal/readmerows"
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
	readmerows.Check(t, "## gRPC", name, module, want)
}
