package stripego_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/examples/internal/conftable"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(conftable.SDKs.Main(m, "stripe-go")) }
