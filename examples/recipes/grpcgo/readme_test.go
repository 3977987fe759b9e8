package grpcgo_test

import (
	"testing"

	"github.com/retrykit/retrykit/examples/recipes/internal/readmerows"
)

// TestREADME: the README's table of gRPC recipes, written by hand (the
// section "## gRPC"; the conformance table above it is generated), holds a
// row for each configuration this recipe's TestRecipe tests check, at the
// version go.mod requires, and no other row of its library.
func TestREADME(t *testing.T) {
	const name, module = "grpc-go", "google.golang.org/grpc"
	want := []string{
		"`retryPolicy` {maxAttempts 5, initialBackoff 1s, backoffMultiplier 2, maxBackoff 5s, UNAVAILABLE}",
		"the same with `retryThrottling` {maxTokens 10, tokenRatio 0.1}",
	}
	readmerows.Check(t, "## gRPC", name, module, want)
}
