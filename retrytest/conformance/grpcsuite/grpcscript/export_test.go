package grpcscript

import (
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
)

// SetGuard replaces the guard's clock, its budget and what it does about
// a stalled bubble, until restore is called.
func SetGuard(clock clockwork.Clock, budget time.Duration, end func(msg string)) (restore func()) {
	c, b, e := guardClock, guardBudget, endStalled
	guardClock, guardBudget, endStalled = clock, budget, end
	return func() { guardClock, guardBudget, endStalled = c, b, e }
}

// BindLike makes the guard of the Test that runs t guard the servers made
// with other too: a fake T inside a guarded bubble.
func BindLike(other, t any) (unbind func()) { return guard.Bind(other, guard.For(t)) }
