package awssdk_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks the README's rows and that no goroutine outlives the
// tests.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(conftable.SDKs.Main(m, "aws-sdk-go-v2 dynamodb"))
}
