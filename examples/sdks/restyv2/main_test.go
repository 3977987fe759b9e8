package restyv2_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/sdks/internal/sdktable"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(sdktable.Main(m, "resty")) }
