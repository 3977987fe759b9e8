// Package clockctx provides [context.WithTimeout] and [context.WithDeadline],
// and their Cause forms, for code that is handed a [clockwork.Clock]: the
// context ends when the deadline passes on that clock, fake or real. Its
// [Sleep] is the wait between two attempts on such a clock that ends early
// when the context does.
//
// It is one of the two retrykit packages meant for production code (the
// other, package retryafter, reads servers' wait hints). It imports only
// the standard library, [github.com/jonboulle/clockwork] and an internal
// package of retrykit that itself imports only the standard library (the
// context type it shares with the fake clock), so a binary that uses it
// links none of retrykit's test machinery (the fake clock, its
// goroutine-state oracle, package testing and testing/synctest).
//
//	// Fetch is production code: it takes the clock it should wait on.
//	func Fetch(ctx context.Context, clk clockwork.Clock, url string) error {
//		ctx, cancel := clockctx.WithTimeout(ctx, clk, 2*time.Second)
//		defer cancel()
//		for attempt := 1; ; attempt++ {
//			// ... try once, return on success ...
//			if err := clockctx.Sleep(ctx, clk, backoff(attempt)); err != nil {
//				return err // the deadline passed on clk, or the caller gave up
//			}
//		}
//	}
//
// # Never clockwork.WithTimeout with a clock you did not make
//
// clockwork.WithTimeout(ctx, clk, d) and clockwork.WithDeadline fake time
// only for clockwork's own *clockwork.FakeClock. Given any other clock —
// retrykit's fakeclock.Clock included — they SILENTLY RETURN A CONTEXT ON
// REAL TIME: the test advances its fake clock past the deadline and the
// context does not end, or it ends in the middle of a test, in real time,
// on a slow machine. context.WithTimeout is real time for every clock.
// Production code that is handed a clockwork.Clock should make every
// deadline with this package, and a test should not have to notice.
//
// # Which context you get
//
// Each function picks by the clock's type:
//
//   - A clock that implements [DeadlineClock] makes the context itself:
//     retrykit's fakeclock.Clock does, with a context whose deadline is a
//     timer on the fake clock (its Err never blocks and no goroutine waits
//     for it). Another fake clock can join by implementing the interface.
//   - A *clockwork.FakeClock gets a context of this package, whose deadline
//     is a timer made with the FakeClock's AfterFunc. It is not
//     clockwork.WithTimeout's context: the Err of that one blocks until the
//     context ends, so a "for ctx.Err() == nil" loop hangs, it keeps a
//     goroutine per context, and clockwork has no Cause forms. Its Err is
//     context.DeadlineExceeded itself, not clockwork's
//     ErrFakeClockDeadlineExceeded (which wraps it).
//   - Any other clock, such as clockwork.NewRealClock(), and a nil clock get
//     the context package's context on real time.
//
// Every context returned reports [context.DeadlineExceeded] from Err once
// its deadline passes, [context.Canceled] once it is canceled, and its
// Deadline on the clock's time. The functions are safe for concurrent use.
package clockctx
