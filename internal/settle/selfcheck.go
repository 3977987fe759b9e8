package settle

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
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
// nil, or an *[Untrusted]. The oracle calls it before its first look.
func SelfCheck() error {
	check.mu.Lock()
	defer check.mu.Unlock()
	if !check.done {
		t0 := time.Now()
		check.err = runSelfCheck()
		check.cost, check.done = time.Since(t0), true
	}
	return check.err
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
	last  []byte // its block at the last look that did not
	fault string // why that block did not read as wanted
}

func runSelfCheck() error {
	me, _ := Current()
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
		exited            sync.WaitGroup
		ids               = make(chan int64)
		probes            []*probeG
	)
	start := func(what, state string, class Class, park func()) {
		p := &probeG{what: what, state: state, class: class}
		probes = append(probes, p)
		exited.Add(1)
		go func() {
			defer exited.Done()
			id, _ := Current()
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
	start("sync.Mutex.Lock", "sync.Mutex.Lock", Idle, func() { mu.Lock(); mu.Unlock() })
	start("sync.RWMutex.RLock", "sync.RWMutex.RLock", Idle, func() { rw.RLock(); rw.RUnlock() })
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
				p.last, p.fault = nil, fmt.Sprintf("goroutine %d is missing from the dump", p.id)
				continue
			}
			g := gs[i]
			switch {
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
			p.last = bytes.Clone(g.Text)
		}
		if allSeen(probes) {
			return nil
		}
		runtime.Gosched()
	}
	for _, p := range probes {
		if !p.seen {
			return untrusted(fmt.Sprintf("a goroutine the self-check parked in %s does not read as expected in %d looks: %s", p.what, selfCheckLooks, p.fault), string(p.last))
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
