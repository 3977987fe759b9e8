package fakeclock

import (
	"context"
	"strconv"
	"time"
)

// DefaultLoopLimit is how many timers one advance may fire before it gives
// up with "loop limit N exceeded" (the default of Vitest's loopLimit).
const DefaultLoopLimit = 10000

// An Option configures a Clock made by [New].
type Option interface {
	apply(*options)
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

type options struct {
	start     time.Time
	settle    func(context.Context) error
	loopLimit int
	leakCheck bool
}

func buildOptions(opts []Option) options {
	o := options{start: Epoch, loopLimit: DefaultLoopLimit, leakCheck: true}
	for _, opt := range opts {
		opt.apply(&o)
	}
	return o
}

// WithTime starts the clock at t instead of [Epoch].
func WithTime(t time.Time) Option {
	return optionFunc(func(o *options) { o.start = t })
}

// WithSettle replaces the built-in settle (synctest.Wait inside a bubble,
// the goroutine-state oracle outside) with f. The clock calls f after every
// firing in AdvanceAndDrain and its siblings, once its own AfterFunc
// goroutines have started; f must return nil once the code under test has
// settled, or an error (which the advance returns) when ctx ends first. A
// nil f restores the built-in settle.
func WithSettle(f func(ctx context.Context) error) Option {
	return optionFunc(func(o *options) { o.settle = f })
}

// WithLoopLimit sets how many timers one advance may fire before it fails
// with "loop limit N exceeded" (default [DefaultLoopLimit]). It panics if n
// is not positive.
func WithLoopLimit(n int) Option {
	if n <= 0 {
		panic("fakeclock: WithLoopLimit: non-positive limit " + strconv.Itoa(n))
	}
	return optionFunc(func(o *options) { o.loopLimit = n })
}

// WithoutLeakCheck turns off the check at the end of the test that fails it
// when timers, tickers, sleeping goroutines or After channels a goroutine
// waits on are still pending on the clock. The clock is still closed at the end of the
// test.
func WithoutLeakCheck() Option {
	return optionFunc(func(o *options) { o.leakCheck = false })
}
