package openaigo_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

// TestMain checks the README's rows and that no goroutine outlives the
// tests. The zone case needs no time.Local: the suite picks a zone the
// machine's does not define.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(conftable.SDKs.Main(m, "openai-go"))
}
