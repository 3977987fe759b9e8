// Package fakeclock provides a fake [clockwork.Clock] that can drive a
// retry loop through its whole schedule with one call, the way Vitest's
// vi.advanceTimersByTimeAsync does: [Clock.AdvanceAndDrain] fires each due
// timer at its own deadline and lets the woken code run until it blocks
// again before it looks for the next timer, so a loop that sleeps 500ms and
// then 1000ms completes with one 1.5s advance, with attempts at exactly
// 0, 500ms and 1.5s.
//
// It works without a testing/synctest bubble, and inside one.
//
//	func TestBackoff(t *testing.T) {
//		clk := fakeclock.New(t) // at fakeclock.Epoch
//		go client.Run(ctx, clk) // the code under test takes a clockwork.Clock
//
//		clk.Step(499 * time.Millisecond) // AdvanceAndDrain, failing the test if it fails
//		// ... exactly one attempt so far ...
//		clk.Step(time.Millisecond)
//		// ... the retry happened at exactly 500ms ...
//	}
//
// # Advancing
//
//   - [Clock.AdvanceAndDrain](ctx, d) settles, then repeatedly takes the
//     earliest timer due by now+d, sets Now to its deadline, fires it and
//     settles again; finally Now is now+d. A d of 0 only settles.
//   - [Clock.AdvanceTo] does the same up to an instant; [Clock.AdvanceToNext]
//     up to the next deadline; [Clock.RunUntilIdle] until nothing is pending,
//     failing with "loop limit N exceeded" (see [WithLoopLimit]) and the call
//     sites when a ticker or a re-arming zero-delay timer would keep it going
//     forever.
//   - [Clock.Step](d) is AdvanceAndDrain for the goroutine running the
//     test: it fails the test (Fatalf, at the caller's line) instead of
//     returning an error, each settle bounded by the default budget.
//   - [Clock.Advance](d) is clockwork's Advance: it fires the due timers in
//     order, Now equal to each deadline as it fires, and returns at once
//     without waiting for the code it woke.
//   - [Clock.Set] jumps the wall time without firing anything (like
//     vi.setSystemTime); pending timers keep the time they had left.
//
// The clock never moves by itself and never reads the wall clock.
//
// # Settled
//
// After each firing, AdvanceAndDrain waits until the code under test has
// settled. Settling is layered:
//
//  1. The clock's own AfterFunc goroutines are tracked exactly: a callback
//     goroutine that has been started but is not yet running keeps the
//     code unsettled, and every callback goroutine is in scope.
//  2. If the clock was made inside a [testing/synctest] bubble (read once,
//     from the header of the creating goroutine's stack, at New),
//     settling is [synctest.Wait]: every other goroutine of the bubble is
//     durably blocked. This is exact and takes microseconds. Such a clock
//     must be advanced from inside its bubble, and a clock made outside a
//     bubble from outside every bubble: the advances that settle refuse
//     either mix-up with an error that says so (Step fails the test with
//     it).
//  3. Otherwise a goroutine-state oracle decides from stop-the-world
//     snapshots of every goroutine's stack (runtime.Stack).
//
// The oracle's definition: the code under test has settled when one
// snapshot shows every goroutine in scope, other than the caller, blocked in
// a way that only another goroutine of the process can end — a channel send
// or receive, a select, a sync.Mutex or RWMutex, a sync.Cond, a
// sync.WaitGroup, a semaphore of the sync or internal/poll packages (a Sleep
// on this clock is such a wait) — and
// no AfterFunc goroutine of the clock is still starting. Goroutines that
// run, are runnable, sleep on the real clock, are in a system call, write or
// connect on a descriptor, wait on one of the runtime's own semaphores (to
// start a garbage collection or stop the world, which the oracle's own
// snapshots also do), or are in any state the oracle does not know, are
// busy. A goroutine waiting to read from or accept on a descriptor is
// idle only when the process's sockets are quiet: on Linux, read-only looks
// at /proc/self/fd (TCP_INFO, SIOCINQ, SIOCOUTQ) find no connection waiting
// to be accepted, no unread bytes, no TCP connection opening or closing, no
// connection to a peer outside the process and no bytes in flight between
// two sockets of the process; on other systems it is never idle. When such a
// network wait is in scope, settling takes two consecutive idle snapshots in
// which the goroutines in scope have identical stacks, each taken between
// two looks at the sockets that are quiet and see the same descriptors and
// the same TCP byte counters, so that no data moved while the oracle
// looked.
//
// The scope is the goroutine that called New; the clock's AfterFunc
// goroutines; every goroutine that any of them started, directly or not, as
// told by the "created by … in goroutine N" lines of the dump and
// remembered across snapshots; and every goroutine whose parent exited
// before a snapshot saw it, so that nothing tells whose it was (New's own
// snapshot included: a goroutine a test started before New through a
// goroutine that has exited since counts in, and so does a goroutine left
// behind that way by an earlier test). While a goroutine in scope waits
// on the network, every goroutine started after New joins the scope, since
// the request may be served by a server the test did not start. Goroutines
// of other tests and of the runtime stay out, so parallel tests and
// CPU-bound goroutines elsewhere in the process do not stop a settle.
//
// The oracle polls with [runtime.Gosched] (never a real sleep), reading the
// scheduler's counters in runtime/metrics first to avoid stopping the world
// while something is obviously running. It gives up when ctx ends, or after
// a real-time budget ([DefaultSettleBudget], cut to a quarter of the time
// left before the test's deadline) when ctx has no deadline, with an error
// wrapping [ErrNotSettled] that lists the goroutines still busy, with their
// stacks, and the pending timers. [WithSettle] replaces layers 2 and 3 with
// a function of your own.
//
// # Limits of settling
//
//   - Real sleeps and real timers: a goroutine in time.Sleep is busy, so the
//     oracle waits it out in real time. A select with an arm on a real timer
//     or a real context deadline counts as idle, so the real timer can fire
//     after the advance has moved on.
//   - Busy goroutines: a goroutine in scope that never blocks (a spin loop, a
//     poller) means the code never settles; the advance returns the error
//     described above at the end of its budget, never hangs.
//   - Work handed to pre-existing goroutines: a worker pool started before
//     New by a goroutine outside the test that is still running is out of
//     scope, and the oracle cannot see it work. Create such things in the
//     test (httptest.Server.Client gives each server its own transport).
//   - I/O: only Linux can tell that the network is quiet; one connection to
//     the outside world keeps every network wait busy until the budget ends.
//     Pipes count as quiet while empty, so a pipe written by another process
//     is invisible. Reads of files and other system calls are busy.
//   - Inside a bubble, synctest.Wait defines settled, with its own limits:
//     a goroutine waiting on a sync.Mutex, on the network or in a system
//     call is not durably blocked, and Wait (so the advance) never returns.
//     There is no real-time budget inside a bubble; go test -timeout is the
//     backstop. Use the clock outside a bubble for such code.
//
// # Reading results
//
// Read what the code under test recorded under its own lock, or receive it
// from a channel. A stack snapshot is no happens-before edge: outside a
// bubble the race detector rightly reports a plain read after
// AdvanceAndDrain of a variable the code under test wrote. Inside a bubble
// synctest.Wait supplies that edge.
//
// # Time package fidelity
//
// Timers, tickers and AfterFunc follow Go 1.23 semantics, checked by a
// table of differential tests against the time package inside a synctest
// bubble: Stop and Reset return what the runtime returns (true when they
// discard a fired value nobody received), no stale value is received after
// either, a ticker drops ticks for a slow receiver and stays on its
// schedule, Reset of an active ticker does not register it twice, a stopped
// ticker can be Reset, AfterFunc runs f in its own goroutine and its timer's
// Chan is nil, zero and negative durations fire at once, and NewTicker
// panics on a non-positive interval. Timers due at the same instant fire in
// the order they were armed, each settled before the next. No user code and
// no blocking send ever runs under the clock's lock, so callbacks may call
// any method of the clock. A large advance costs O(1) per ticker whose ticks
// nobody receives.
//
// # Contexts on fake time
//
// [Clock.WithTimeout], [Clock.WithDeadline] and their Cause variants make
// contexts whose deadline is a timer on the clock: Err never blocks,
// Deadline is the fake deadline, [context.Cause] works, derived contexts
// report [context.DeadlineExceeded], and no goroutine waits per context.
//
// Production code does not see a *Clock, only the [clockwork.Clock] it is
// handed, and must make its deadlines with package
// [github.com/retrykit/retrykit/clockctx]:
//
//	ctx, cancel := clockctx.WithTimeout(ctx, clk, 2*time.Second) // not clockwork.WithTimeout
//	defer cancel()
//
// For a *Clock, clockctx returns the fake-time context above (a *Clock is a
// [clockctx.DeadlineClock]); for the real clock, the context package's.
// clockctx imports only the standard library and clockwork, so production
// binaries do not link this package.
//
// Beware: clockwork.WithTimeout(ctx, clk, d) and clockwork.WithDeadline
// fake time only for clockwork's own *clockwork.FakeClock. Given this
// package's Clock they SILENTLY RETURN A CONTEXT ON REAL TIME, whose
// deadline no advance reaches.
//
// # Introspection
//
// [Clock.Delays] returns every wait asked of the clock, in order, so a test
// can assert a retry schedule straight off the clock. [Clock.Pending]
// describes what is still waiting — kind, deadline, period and the
// file:line of the user's code that armed it — and [Waiter.String] prints
// it as "Ticker every 1s, next at +3s, armed at worker_test.go:41".
// [Clock.NextDeadline], [Clock.Counters] and [Clock.WaitForTimers] complete
// the set.
//
// # Leaks
//
// New registers a t.Cleanup that settles the code under test and then fails
// the test, naming the call sites, if a timer, ticker, AfterFunc, context
// deadline or sleeping goroutine is still pending on the clock
// ([WithoutLeakCheck] turns this off). It then calls [Clock.Close], which
// releases every goroutine parked on the clock so that the code under test
// can exit before goleak looks for leaks.
//
// A pending After is the one exception, because nobody can stop it and its
// channel can become garbage. As the time package does since Go 1.23, the
// clock holds an After's channel weakly; the check runs a garbage
// collection and reports a pending After only while its channel is still
// reachable. So the idiomatic cancellable wait
//
//	select {
//	case <-ctx.Done():
//		return ctx.Err()
//	case <-clk.After(d):
//	}
//
// leaves no leak once it has returned through ctx.Done(): nothing can ever
// receive from that channel (avast/retry-go waits this way, and a canceled
// retry.Do passes the check). A goroutine still parked on the channel keeps
// it reachable, so that After is reported, followed by the goroutines of
// the test still blocked in the function that armed it, with their stacks:
// typically a loop stuck in a wait it should not have begun, such as a
// sleep before its first attempt. Anything else that still holds the
// channel (a field of a value the test keeps alive) keeps the After
// reported too. Until it fires, [Clock.Pending] lists an After whatever
// holds its channel.
package fakeclock
