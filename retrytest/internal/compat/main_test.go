package compat_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Ginkgo's interrupt handler lives for the whole test binary by design.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"))
}
