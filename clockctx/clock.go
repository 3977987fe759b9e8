package clockctx

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// DeadlineClock is a [clockwork.Clock] that makes contexts whose deadline
// passes on its own time. Given such a clock, every function of this
// package returns the context the clock makes, so a fake clock that
// implements DeadlineClock is safe to hand to production code that makes
// its deadlines with this package. retrykit's fakeclock.Clock implements
// it.
//
// WithDeadlineCause must behave as [context.WithDeadlineCause] does on the
// clock's time: the context ends when the clock reaches d, when the
// returned function is called, or when parent ends, whichever comes first;
// Err then reports [context.DeadlineExceeded] or [context.Canceled]; once
// the deadline has passed, [context.Cause] reports cause, or
// DeadlineExceeded when cause is nil; Deadline reports d, or parent's
// deadline when that is earlier.
type DeadlineClock interface {
	clockwork.Clock
	WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc)
}
