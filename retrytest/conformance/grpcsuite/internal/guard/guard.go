// Package guard watches, in real time and from outside every
// testing/synctest bubble, for a scripted server that no attempt reaches:
// inside a bubble time is fake, and a bubble stalled on real I/O runs
// nothing at all, so only a goroutine outside it can notice and report.
//
// A Guard is started outside the bubbles it serves (Start); a server made
// inside one finds the Guard of its test (For) and watches with it
// (Guard.Watch) until its first attempt or its close (Watch.Done). A
// watch that outlives its budget of real time fires, in the Guard's
// goroutine.
package guard

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/goheader"
)

// Guard is a goroutine outside every bubble that fires the watches whose
// budget has run out.
type Guard struct {
	clock  clockwork.Clock
	budget time.Duration

	mu      sync.Mutex
	watches []*Watch
	wake    chan struct{} // buffered: a new watch
	stop    chan struct{}
	stopped chan struct{}
}

// Watch is one server's wait for its first attempt.
type Watch struct {
	g        *Guard
	fire     func()
	deadline time.Time // on the Guard's clock; zero until the Guard sees the watch
	done     bool      // guarded by g.mu
}

// Start starts a Guard whose watches fire budget after the Guard sees
// them, on clock (real time in use, a fake clock in the tests). It panics
// inside a bubble, where its clock would be the bubble's and its goroutine
// would stall with it.
func Start(clock clockwork.Clock, budget time.Duration) *Guard {
	if goheader.InBubble() {
		panic("grpcscript: the guard of the scripted servers must start outside the testing/synctest bubble it watches")
	}
	g := &Guard{clock: clock, budget: budget, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	go g.run()
	return g
}

// Stop ends the Guard's goroutine and waits for it: a watch not fired yet
// never fires.
func (g *Guard) Stop() {
	close(g.stop)
	<-g.stopped
}

// Watch arms a watch that calls fire, in the Guard's goroutine, once the
// budget has passed, unless Watch.Done is called first. fire must check
// that what it reports still holds: Done may race with it.
func (g *Guard) Watch(fire func()) *Watch {
	w := &Watch{g: g, fire: fire}
	g.mu.Lock()
	g.watches = append(g.watches, w)
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
	return w
}

// Done disarms w.
func (w *Watch) Done() {
	w.g.mu.Lock()
	w.done = true
	w.g.mu.Unlock()
}

func (g *Guard) run() {
	defer close(g.stopped)
	for {
		due, next := g.due()
		for _, w := range due {
			w.fire()
		}
		var tick <-chan time.Time
		var timer clockwork.Timer
		if !next.IsZero() {
			timer = g.clock.NewTimer(next.Sub(g.clock.Now()))
			tick = timer.Chan()
		}
		stop := false
		select {
		case <-tick:
		case <-g.wake:
		case <-g.stop:
			stop = true
		}
		if timer != nil {
			timer.Stop()
		}
		if stop {
			return
		}
	}
}

// due takes out the watches whose deadline has passed, stamps the new
// ones, and returns the earliest deadline left (zero for none).
func (g *Guard) due() (due []*Watch, next time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.clock.Now()
	keep := g.watches[:0]
	for _, w := range g.watches {
		if w.done {
			continue
		}
		if w.deadline.IsZero() {
			w.deadline = now.Add(g.budget)
		}
		if !now.Before(w.deadline) {
			w.done = true
			due = append(due, w)
			continue
		}
		if next.IsZero() || w.deadline.Before(next) {
			next = w.deadline
		}
		keep = append(keep, w)
	}
	clear(g.watches[len(keep):])
	g.watches = keep
	return due, next
}

var bound sync.Map // a test's t → its *Guard

// Bind makes g the Guard of the servers made with t, until unbind is
// called.
func Bind(t any, g *Guard) (unbind func()) {
	bound.Store(t, g)
	return func() { bound.Delete(t) }
}

// For is the Guard bound to t, or nil.
func For(t any) *Guard {
	g, _ := bound.Load(t)
	gg, _ := g.(*Guard)
	return gg
}
