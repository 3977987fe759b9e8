package httpscript_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests on a goroutine left behind: the
// Handler's tests run real servers and clients.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
