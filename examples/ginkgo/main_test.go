package ginkgo_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Ginkgo's interrupt handler lives as long as the process: the one
// goroutine a leak check of a Ginkgo suite ignores. retrykit's own fakes
// need no ignore.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/onsi/ginkgo/v2/internal/interrupt_handler.(*InterruptHandler).registerForInterrupts.func2"))
}
