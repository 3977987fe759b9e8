// Package fakeclock is a fake [clockwork.Clock] for tests of retry code.
// Its time moves only when the test says so, and [Clock.Step] moves it the
// way a retry ladder needs: it fires each due timer at its own deadline and
// lets the woken code run until it waits again, so one call drives a whole
// ladder, and a test can assert "nothing at 499ms, the retry at exactly
// 500ms".
//
//	func TestBackoff(t *testing.T) {
//		clk := fakeclock.New(t) // at 2000-01-01T00:00:00Z
//		go client.Run(t.Context(), clk)
//		clk.Step(499 * time.Millisecond) // one attempt so far
//		clk.Step(time.Millisecond)       // the retry, at exactly 500ms
//	}
//
// # Advancing
//
// Three methods move the clock. [Clock.Step] waits for the code under test
// to settle before it fires anything and after each timer it fires, and
// fails the test when the code does not settle; [Clock.AdvanceAndDrain] is
// the same advance returning that error; [Clock.Advance] is clockwork's,
// and waits for nothing. [Clock.Set] jumps the wall time, firing nothing.
//
// # Settling: the rules
//
//   - Inside a [testing/synctest] bubble, make the clock in the bubble and
//     advance it there: settling is synctest.Wait, exact.
//   - Outside a bubble, an advance waits until every goroutine of the
//     process is blocked on something only another goroutine can end (a
//     channel, a select, a mutex, a wait group, this clock), except the
//     goroutines of other tests still running and the runtime's lifelong
//     ones (signal.Notify's loop, a profiler). So make the clock wherever
//     the test framework makes fixtures (a Ginkgo BeforeEach, a testify
//     SetupTest, a helper goroutine) and start the code anywhere, workers
//     started by TestMain included.
//   - A goroutine of the test that never blocks (a spin loop, a poller)
//     keeps an advance from settling: it fails after [DefaultSettleBudget]
//     (or ctx's deadline), naming the goroutine and what its stack proves.
//   - Outside a bubble the settle reads the goroutine dump, checked once
//     per process; what it cannot read fails the advance at once
//     ([ErrDumpUnreadable]), never a guess.
//   - Read what the code under test recorded under its own lock, or from a
//     channel: outside a bubble a settle is no happens-before edge for the
//     race detector.
//   - A wait nothing can end (the test's own goroutine waits on the clock,
//     and no advance begins for [SyncWaitLimit]) fails the test, naming
//     where it waits, and closes the clock, which ends the wait.
//
// # Limits
//
//   - A real time.Sleep in the code under test is waited out in real time,
//     and a real time.After, timer or context deadline holds nothing an
//     advance can fire. [Clock.WaitingElsewhere], the leak check and
//     retrytest's failed checks name such waits, with their file:line.
//   - Only Linux can tell that no data is on its way to a goroutine that
//     waits on the network; one connection to a peer outside the process
//     keeps such waits busy until the budget ends.
//   - A goroutine started by another test that is still running is out of
//     scope: don't hand work to another running test's workers.
//   - Outside a bubble each fired timer costs a snapshot of every
//     goroutine, which grows with their number: drive a big fleet in a
//     bubble, where it costs about a microsecond. A clock whose looks are
//     slow says so once, with t.Logf.
//   - Inside a bubble, synctest.Wait's limits hold: a goroutine waiting on
//     a mutex, the network or a system call is not durably blocked, and
//     the advance never returns (go test -timeout is the backstop).
//
// # Deadlines, leaks and introspection
//
// Production code makes its deadlines with clockctx.WithTimeout(ctx, clk,
// d): clockwork.WithTimeout is real time for any clock but clockwork's. New
// registers a t.Cleanup that fails the test, naming the call sites, if
// a timer, ticker, AfterFunc, context deadline or sleeping goroutine is
// still pending ([WithoutLeakCheck] turns it off), or an After a goroutine
// of the test still waits on; an After nobody waits on is no leak, or, when
// the collector has not reclaimed its channel, a logged "cannot tell"
// (see [Clock.VerifyIdle]). [Clock.VerifyIdle], as a test's last line,
// checks the same before the defers run. [Clock.Pending] lists what waits,
// with the file:line that armed it; [Clock.Delays] the loop's waits, which
// the checks of retrytest read off the clock itself.
package fakeclock
