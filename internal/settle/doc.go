// Package settle decides, outside a testing/synctest bubble, when the code
// under test has settled: every goroutine that may be running it waits on
// something that only another goroutine of the process can end. It holds
// every runtime trick fakeclock's advances need — the parser of the
// goroutine dump written by [runtime.Stack], the record of which test
// started each goroutine, the look at the process's sockets, and the
// oracle that combines them — so that fakeclock reads as a clock.
//
// # Scope
//
// An [Oracle] is made by the goroutine that makes a clock. Its scope is
// every goroutine of the process, except:
//
//   - the goroutine that looks (the one advancing the clock);
//   - lifelong goroutines of the runtime and the standard library, which
//     never run the code under test: those started by package os/signal
//     (signal.Notify's loop, in a system call for the life of the
//     process), runtime/pprof (a CPU profile's writer), runtime/trace (an
//     execution trace's reader) and the runtime itself;
//   - goroutines started by another test that is still running: their
//     ancestry, followed through the "created by … in goroutine N" lines
//     of the dumps, reaches a goroutine running testing.tRunner (or a
//     benchmark's runN) that is alive and is neither the oracle's test, nor
//     one of that test's parent tests, nor the looking goroutine's test.
//
// Everything else is in: the test's own goroutines wherever the clock was
// made (a Ginkgo BeforeEach, a testify SetupTest, a helper goroutine that
// has exited), the goroutines a parent test or TestMain started, and any
// goroutine whose ancestry is lost. Ancestry is remembered process-wide
// across snapshots (goroutine numbers are never reused), so a goroutine
// whose parent has exited is still traced while some earlier snapshot saw
// the parent; when none did, the goroutine counts in, and a failed settle
// says it may belong to another test. A goroutine left behind by a test
// that has ended counts in too, and the failure names that test.
//
// # Settled
//
// The goroutines in scope have settled when one snapshot shows each of
// them blocked in a way that only another goroutine can end: a channel
// send or receive, a select, a sync.Mutex or RWMutex, a sync.Cond, a
// sync.WaitGroup, a semaphore of the sync or internal/poll packages (a
// Sleep on a fake clock is such a wait). Goroutines that run, are
// runnable, sleep in time.Sleep, are in a system call, write or connect
// on a descriptor, wait on one of the runtime's own semaphores, or are in
// one of the runtime's own states (a garbage collection's, the world
// stopping) are busy; a state the parser does not know fails the settle
// (see Trust below).
//
// A goroutine waiting to read from or accept on a descriptor is idle only
// when the process's sockets are quiet: on Linux, read-only looks at
// /proc/self/fd (TCP_INFO, SIOCINQ, SIOCOUTQ) find no connection waiting to
// be accepted, no unread bytes, no TCP connection opening or closing, no
// connection to a peer outside the process and no bytes in flight between
// two sockets of the process; on other systems it is never idle. While
// such a wait is in scope, settling takes two consecutive idle snapshots
// with identical stacks, each taken between two looks at the sockets that
// are quiet and see the same descriptors and TCP byte counters.
//
// The oracle never sleeps. Before each snapshot it reads the scheduler's
// counters in runtime/metrics, yielding with runtime.Gosched while a
// goroutine waits for a processor, and polling while others run, for at
// most as long as a snapshot takes: a snapshot while the woken code still
// runs would be wasted. The counters only decide when to look, never that
// the goroutines are idle: they are approximate, and they cannot tell a
// goroutine parked on a channel from one asleep in time.Sleep or waiting
// for bytes still in flight. Every settle ends with a snapshot. The oracle
// gives up at the caller's deadline with an [*Unsettled] that lists the
// busy goroutines, with their stacks and what the stacks prove about them.
//
// # Cost
//
// A snapshot is [runtime.Stack] of every goroutine: it stops the world and
// formats every stack, a microsecond or two per goroutine of the process.
// The oracle's own work on it is small: an origin is worked out once per
// goroutine, buffers are reused, and stacks are hashed only when a network
// wait is in scope. An advance outside a bubble settles after each timer it
// fires (the woken code must run, and may read the time or arm an earlier
// timer, before the next one fires), so it pays one snapshot per fired
// timer, and nothing cheaper is exact: short of a snapshot, no API of the
// runtime tells where the goroutines that ran since the last one now wait.
// Measured with fakeclock's BenchmarkLadder and BenchmarkRetriers on a
// 2-core VM: about 40µs per fired timer at GOMAXPROCS=1 with the handful of
// goroutines of a test binary, four times that at GOMAXPROCS=2, where each
// stop of the world wakes the other processor's thread, and 1.7 to 1.9ms
// per fired timer with 1,000 goroutines parked. Inside a bubble a fired
// timer costs about a microsecond.
//
// # Diagnosis
//
// [View.Elsewhere] names the goroutines of the code under test that are
// parked, but not on a given clock: asleep in time.Sleep, parked in another
// clock's method, or waiting in a select or receive where no function on
// their stack armed a timer of the clock. A dump shows neither the channels
// of a select nor the channel of a receive, so it says no more than that.
//
// # Trust
//
// The dump format is not an API of the runtime. The parser follows the
// format of Go 1.21 and later ("created by f in goroutine N"), reads the
// bubble number and strips the suffixes the runtime adds ("(durable)",
// "(scan)", "(leaked)", ", synctest bubble N"). It does not guess where
// the text is not what it expects:
//
//   - the states are two explicit lists, idle and busy, taken from the
//     runtime's table of wait reasons; a goroutine in scope in a state in
//     neither is [Unrecognized], and the settle fails at once with an
//     [*Untrusted] that names the state, the Go release and the block;
//   - a block whose header cannot be read fails the settle the same way
//     (skipped, its goroutine would be missing, and the settle could end
//     while it runs);
//   - before the first settle of the process, [SelfCheck] parks goroutines
//     of its own in nine states (channel receive and send, select, mutex,
//     read lock, wait group, condition variable, time.Sleep, a read from a
//     pipe) and checks the header, the state, the class, the created-by
//     line and the frames the diagnosis reads, in about a millisecond; a
//     mismatch fails every settle at once.
//
// [goheader.InBubble] is the one test of "inside a synctest bubble" (its doc says
// why it reads what it reads), and every poll of the oracle is bounded in
// a way that holds inside a bubble too, should it ever run in one: time
// that stands still across looks, and a count of looks. CI runs the tests
// under the newest Go release as well.
package settle
