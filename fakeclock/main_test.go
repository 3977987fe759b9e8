package fakeclock_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(poolM{m}) }

// poolM runs the tests with the worker pool of TestScopeTestMainPool
// started before them, as a package's TestMain may start shared workers.
type poolM struct{ m *testing.M }

func (p poolM) Run() int {
	stop := startPool(2)
	defer stop()
	return p.m.Run()
}
