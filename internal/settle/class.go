package settle

// Class sorts goroutine states for a settle oracle.
type Class int

const (
	// Busy means the goroutine runs, can run, or waits for something that
	// ends by itself (a real sleep, a system call, a write, the runtime's
	// own work): the code under test has not settled.
	Busy Class = iota
	// Idle means the goroutine waits on in-process synchronization (a
	// channel, select, mutex, condition variable, wait group): only another
	// goroutine can wake it.
	Idle
	// IOWait means the goroutine waits to read from, or accept on, a file
	// descriptor: it is idle only while no data is on its way.
	IOWait
	// Unrecognized means the dump shows a state this package does not
	// know, so it cannot tell whether the goroutine waits for another
	// goroutine or for something that ends by itself. A settle that finds
	// one in scope fails at once, naming it (see [Untrusted]), rather than
	// wait out its budget as if the goroutine were busy.
	Unrecognized
)

// String returns "busy", "idle", "IO wait" or "unrecognized".
func (c Class) String() string {
	switch c {
	case Idle:
		return "idle"
	case IOWait:
		return "IO wait"
	case Unrecognized:
		return "unrecognized"
	default:
		return "busy"
	}
}

// The runtime prints a goroutine's state in the header of its block
// ("goroutine 7 [chan receive]:"): its status ("running", "runnable",
// "syscall"), or, for a waiting goroutine, the wait reason, from the
// runtime's table waitReasonStrings (runtime/runtime2.go). Neither is an
// API: a release may add a reason or reword one. So both lists below are
// explicit, and a state in neither is Unrecognized, never guessed.

// idleState reports the wait reasons that only another goroutine of the
// process can end.
func idleState(state string) bool {
	switch state {
	case "chan receive",
		"chan send",
		"chan receive (nil chan)",
		"chan send (nil chan)",
		"select",
		"select (no cases)",
		"sync.Cond.Wait",
		"sync.Mutex.Lock",
		"sync.RWMutex.RLock",
		"sync.RWMutex.Lock",
		"sync.WaitGroup.Wait",
		// A goroutine of iter.Pull between two calls of next: only the
		// goroutine that calls next resumes it.
		"coroutine":
		return true
	}
	return false
}

// busyState reports the statuses and wait reasons of a goroutine that
// runs, can run, or waits for something that ends by itself: a real timer,
// a system call, the garbage collector, the world stopping, a synctest
// bubble (fake time moves on its own there), the runtime's own
// semaphores. "IO wait" and "semacquire" are listed here too: Class makes
// a read's IO wait and a semaphore of package sync idle first.
func busyState(state string) bool {
	switch state {
	case "running",
		"runnable",
		"syscall",
		"waiting", // a wait with no reason
		"idle",
		"copystack",
		"preempted",
		"sleep",
		"IO wait",
		"semacquire",
		"GC assist marking",
		"GC assist wait",
		"GC sweep wait",
		"GC scavenge wait",
		"GC worker (idle)",
		"GC worker (active)",
		"GC mark termination",
		"GC weak to strong wait",
		"garbage collection",
		"garbage collection scan",
		"wait for GC cycle",
		"stopping the world",
		"flushing proc caches",
		"force gc (idle)",
		"finalizer wait",
		"cleanup wait",
		"GOMAXPROCS updater (idle)",
		"dumping heap",
		"panicwait",
		"debug call",
		"trace reader (blocked)",
		"trace goroutine status",
		"trace proc status",
		"page trace flush",
		"synctest.Run",
		"synctest.Wait":
		return true
	}
	return false
}

// Class returns the goroutine's class. A read's or an accept's IO wait is
// IOWait; an IO wait that is not one (a write or a connect finishes by
// itself) is busy, and so is a "semacquire" wait on one of the runtime's
// own semaphores (a goroutine that starts a garbage collection, or stops
// the world, while another goroutine holds the semaphore), while one that
// package sync or internal/poll asked for is idle. A state in neither
// list is Unrecognized.
func (g Goroutine) Class() Class {
	switch {
	case idleState(g.State) || g.State == "semacquire" && g.userSema:
		return Idle
	case g.State == "IO wait" && g.readWait:
		return IOWait
	case busyState(g.State):
		return Busy
	}
	return Unrecognized
}
