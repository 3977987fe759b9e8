// Package settle decides, outside a testing/synctest bubble, when the code
// under test has settled: every goroutine that may be running it waits on
// something that only another goroutine of the process can end. It holds
// the runtime tricks fakeclock's advances need — the goroutine dump's
// parser, the record of which test started each goroutine, the look at the
// sockets, and the oracle that combines them.
//
// # Scope
//
// An [Oracle] is made by the goroutine that makes a clock. Its scope is
// every goroutine of the process, except:
//
//   - the goroutine that looks (the one advancing the clock);
//   - goroutines of synctest bubbles, whose waits only their bubble's
//     time ends (the oracle runs outside every bubble);
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
// made, the goroutines a parent test or TestMain started, a goroutine left
// by a test that has ended (the failure names that test), and any whose
// ancestry is lost (the failure says it may belong to another test).
// Ancestry is remembered process-wide across snapshots.
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
// when the process's sockets are quiet (Linux only; elsewhere never). The
// oracle never sleeps: the scheduler's counters decide when to look, never
// that the goroutines are idle, and every settle ends with a snapshot. It
// gives up at the caller's deadline with an [*Unsettled] that lists the
// busy goroutines, with their stacks and what the stacks prove about
// them. docs/design.md says how the sockets are read, and when it looks.
//
// # Cost
//
// A snapshot is [runtime.Stack] of every goroutine: it stops the world and
// formats every stack, a microsecond or two per goroutine of the process.
// An advance outside a bubble pays one per fired timer, and nothing
// cheaper is exact; docs/design.md has the figures.
//
// # Diagnosis
//
// [View.Elsewhere] names the goroutines of the code under test that are
// parked, but not on a given clock (asleep in time.Sleep, parked in another
// clock's method, or in a select or receive that armed no timer of it).
//
// # Trust
//
// The dump format is not an API of the runtime, and the parser does not
// guess where the text is not what it expects: a state in neither of its
// two explicit lists (idle and busy, from the runtime's table of wait
// reasons) is [Unrecognized], and a block whose header cannot be read is
// refused; either fails the settle at once with an [*Untrusted] that names
// the Go release, the problem and the block. Before the first settle of
// the process, [SelfCheck] parks goroutines of its own in nine states and
// checks what the parser and the diagnosis read of them, in about a
// millisecond; a mismatch fails every settle at once.
//
// Its polls are bounded inside a bubble too ([goheader.InBubble] tells).
package settle
