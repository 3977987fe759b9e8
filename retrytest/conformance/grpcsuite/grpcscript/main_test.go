package grpcscript_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests on a goroutine left behind: a closed
// server leaves none, nor does its guard.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
