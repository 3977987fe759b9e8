// Package timerctx provides [Context], the one context of retrykit that a
// timer ends: the fake-time contexts of fakeclock.Clock and the contexts
// package clockctx makes for a *clockwork.FakeClock.
//
// Its owner keeps the clock and the timer; a Context keeps everything else:
// Done, an Err that never blocks, Deadline, Value, the cause that
// [context.Cause] reports, the end of the context when its parent ends, and
// an AfterFunc method through which the context package attaches derived
// contexts without a goroutine each. The owner makes it with [New], arms a
// timer that calls [Context.Expire], hands the timer's Stop to
// [Context.SetTimer] and calls [Context.WatchParent]; [Context.Cancel] is
// the context's cancel function.
//
// It imports only the standard library, so clockctx, the retrykit package
// meant for production code, can use it.
package timerctx
