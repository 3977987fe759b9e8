package retrykit_test

import (
	"testing"

	"github.com/retrykit/retrykit/retrytest"
)

func TestMain(m *testing.M) { retrytest.VerifyTestMain(m) }
