package settle

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
)

// The self-check: before the oracle trusts a dump, once per process, it
// parks goroutines of its own in every state it can park one in
// deterministically and checks that the dump shows each of them the way
// this package reads it — the header, the state, the class, the
// "created by … in goroutine N" line, the frames the diagnosis looks for.
// A release of Go that words any of them differently fails every settle
// at once with an [Untrusted] naming what it saw, instead of making each
// one wait out its budget (an unknown state reads as busy to a guess) or
// settle too early (a goroutine whose header cannot be read is missing).

// selfCheckLooks bounds the looks the self-check takes while its
// goroutines park. It is a count, not a time: inside a synctest bubble
// (should the oracle ever run in one) time stands still while a goroutine
// spins. A goroutine parks within a few looks; a mutex's waiter spins
// first, a sleeper wakes every 200µs.
const selfCheckLooks = 2000

var check struct {
	mu   sync.Mutex
	done bool
	err  error
	cost time.Duration
}

// SelfCheck runs the self-check, the first time it is called in the
// process (or after a test's dump hook changed), and returns its verdict:
// nil, or an *[Untrusted]; or [ErrInBubble], checking nothing, when time
// stands still (the caller runs inside a synctest bubble). The oracle
// calls it before its first look.
func SelfCheck() error {
	check.mu.Lock()
	defer check.mu.Unlock()
	if !check.done {
		if timeStandsStill() {
			// Inside a bubble after all (the detector misjudged): parked
			// goroutines could outlive the check there (a sleeper wakes
			// only when the bubble's clock moves), so none is started,
			// and the check runs at the next settle outside one.
			return ErrInBubble
		}
		t0 := time.Now()
		check.err = runSelfCheck()
		check.cost, check.done = time.Since(t0), true
	}
	return check.err
}

// timeStandsStill reports whether time.Now stood still across each of
// stillLooks reads of the caller's stack, as it does inside a synctest
// bubble while the caller runs. Outside one it returns at the first read,
// a microsecond or so.
func timeStandsStill() bool {
	var buf [1024]byte
	for range stillLooks {
		t0 := time.Now()
		runtime.Stack(buf[:], false)
		if time.Now().After(t0) {
			return false
		}
	}
	return true
}

// SelfCheckCost returns the real time the last self-check took, or 0 if
// none ran.
func SelfCheckCost() time.Duration {
	check.mu.Lock()
	defer check.mu.Unlock()
	return check.cost
}

func resetSelfCheck() {
	check.mu.Lock()
	defer check.mu.Unlock()
	check.done, check.err, check.cost = false, nil, 0
}

// probeG is one goroutine the self-check parks, and what the dump must
// show of it.
type probeG struct {
	what  string // "a channel receive"
	state string // the state the header must show
	class Class
	id    int64
	seen  bool   // a look showed it as wanted
	last  []byte // its block at the last look that showed it on its way
	fault string // how that look showed it
}

func runSelfCheck() error {
	me, _ := goheader.Current()
	if me == 0 {
		var buf [256]byte
		n := runtime.Stack(buf[:], false)
		line, _, _ := bytes.Cut(buf[:n], []byte{'\n'})
		return untrusted("the header of a goroutine's own stack does not read as \"goroutine N [state]:\"", string(line))
	}
	var (
		stop              = make(chan struct{})
		recv, send, other = make(chan int), make(chan int), make(chan int)
		mu                sync.Mutex
		rw                sync.RWMutex
		group             sync.WaitGroup
		condMu            sync.Mutex
		cond              = sync.NewCond(&condMu)
		woken             bool
		through, read     int // what the lock waiters guard
		exited            sync.WaitGroup
		ids               = make(chan int64)
		probes            []*probeG
	)
	// start parks a goroutine with park. The self-check waits for every
	// one to exit once released (the sleeper at its next wake-up, within
	// 200µs): left running, a sleeper would show in the settles that
	// follow as a goroutine of the test asleep in time.Sleep. It never
	// runs inside a bubble, where the sleeper could wake only once the
	// bubble's clock moves (see timeStandsStill).
	start := func(what, state string, class Class, park func()) {
		p := &probeG{what: what, state: state, class: class}
		probes = append(probes, p)
		exited.Add(1)
		go func() {
			defer exited.Done()
			id, _ := goheader.Current()
			ids <- id
			park()
		}()
		p.id = <-ids
	}
	mu.Lock()
	rw.Lock()
	group.Add(1)
	start("a channel receive", "chan receive", Idle, func() { <-recv })
	start("a channel send", "chan send", Idle, func() { send <- 1 })
	start("a select", "select", Idle, func() {
		select {
		case <-stop:
		case <-other:
		}
	})
	start("sync.Mutex.Lock", "sync.Mutex.Lock", Idle, func() {
		mu.Lock()
		through++
		mu.Unlock()
	})
	start("sync.RWMutex.RLock", "sync.RWMutex.RLock", Idle, func() {
		rw.RLock()
		_ = read
		rw.RUnlock()
	})
	start("sync.WaitGroup.Wait", "sync.WaitGroup.Wait", Idle, group.Wait)
	start("sync.Cond.Wait", "sync.Cond.Wait", Idle, func() {
		condMu.Lock()
		for !woken {
			cond.Wait()
		}
		condMu.Unlock()
	})
	start("time.Sleep", "sleep", Busy, func() {
		for {
			select {
			case <-stop:
				return
			default:
				time.Sleep(200 * time.Microsecond)
			}
		}
	})
	r, w, pipeErr := os.Pipe()
	if pipeErr == nil {
		start("a read from a pipe", "IO wait", IOWait, func() {
			var b [1]byte
			r.Read(b[:])
		})
	}
	err := lookAtProbes(me, probes)
	close(recv)
	<-send
	close(stop)
	mu.Unlock()
	rw.Unlock()
	group.Done()
	condMu.Lock()
	woken = true
	cond.Broadcast()
	condMu.Unlock()
	if pipeErr == nil {
		w.Close()
	}
	exited.Wait()
	if pipeErr == nil {
		r.Close()
	}
	return err
}

// lookAtProbes looks until the dump has shown every probe as wanted, at
// most selfCheckLooks times.
func lookAtProbes(me int64, probes []*probeG) error {
	var buf []byte
	for look := 0; look < selfCheckLooks; look++ {
		var dump, bad []byte
		buf, dump = Snapshot(buf)
		gs := parseInto(nil, dump, &bad)
		if bad != nil {
			return untrusted("a goroutine's header does not read as \"goroutine N [state]:\"", string(bad))
		}
		for _, p := range probes {
			if p.seen {
				continue
			}
			i := indexOf(gs, p.id)
			if i < 0 {
				return untrusted(fmt.Sprintf("a goroutine the self-check parked in %s (goroutine %d, by the header of its own stack) is missing from the dump", p.what, p.id), "")
			}
			g := gs[i]
			switch {
			case g.State != p.state && busyState(g.State):
				// On its way to park, or in the runtime's work for a
				// moment (a GC assist): look again.
				p.last, p.fault = bytes.Clone(g.Text), fmt.Sprintf("its state reads as %q, want %q", g.State, p.state)
				continue
			case g.State != p.state:
				p.fault = fmt.Sprintf("its state reads as %q, want %q", g.State, p.state)
			case g.Class() != p.class:
				p.fault = fmt.Sprintf("its class is %s, want %s", g.Class(), p.class)
			case g.Parent != me:
				p.fault = fmt.Sprintf("its \"created by\" line names goroutine %d as its parent, want %d", g.Parent, me)
			case !bytes.Contains(g.CreatedBy(), []byte("internal/settle.runSelfCheck")):
				p.fault = fmt.Sprintf("its \"created by\" line names %q, want the self-check", g.CreatedBy())
			case p.state == "sleep" && !sleeping(g):
				p.fault = "no time.Sleep frame on its stack"
			default:
				p.seen = true
				continue
			}
			// A goroutine that parked where it should and reads wrong
			// will read so at every look: no need to look again.
			return untrusted(fmt.Sprintf("a goroutine the self-check parked in %s does not read as expected: %s", p.what, p.fault), string(g.Text))
		}
		if allSeen(probes) {
			return nil
		}
		runtime.Gosched()
	}
	for _, p := range probes {
		if !p.seen {
			return untrusted(fmt.Sprintf("a goroutine the self-check parked in %s did not show as parked in %d looks: %s", p.what, selfCheckLooks, p.fault), string(p.last))
		}
	}
	return nil
}

func allSeen(probes []*probeG) bool {
	for _, p := range probes {
		if !p.seen {
			return false
		}
	}
	return true
}

func sleeping(g Goroutine) bool {
	_, ok := sleepsAt(g)
	return ok
}

func indexOf(gs []Goroutine, id int64) int {
	for i, g := range gs {
		if g.ID == id {
			return i
		}
	}
	return -1
}
