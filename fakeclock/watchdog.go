package fakeclock

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/internal/settle"
)

// SyncWaitLimit is how long, in real time, the goroutine that runs the
// test may wait on a clock while no advance of it begins, before the clock
// reports that nothing can end the wait (see "A wait nothing can end" in
// the package documentation).
const SyncWaitLimit = 5 * time.Second

// syncWaitLimit is SyncWaitLimit, shortened by the package's own tests;
// onLook, when set by them, is told each time a watchdog has looked, and
// onArmed, on the goroutine that arms, each time arm has made a timer
// pending and not yet told the watchdog (where an advance may begin). All
// are atomic: a clock another test left open may look or arm while a test
// sets them.
var (
	syncWaitLimit atomic.Int64 // nanoseconds; 0 means SyncWaitLimit
	onLook        atomic.Pointer[func()]
	onArmed       atomic.Pointer[func(*Clock)]
)

func waitLimit() time.Duration {
	if d := time.Duration(syncWaitLimit.Load()); d > 0 {
		return d
	}
	return SyncWaitLimit
}

// watchdog tells a wait that nothing can end from one that an advance
// will end: outside a synctest bubble, while something waits on the clock,
// it looks every syncWaitLimit of real time whether an advance began since
// it last looked.
type watchdog struct {
	mu     sync.Mutex
	timer  *time.Timer // nil when not watching
	seen   uint64      // the clock's advances when the wait it watches was armed
	closed bool
}

// watch starts the watchdog if it is not watching: called when something
// is armed on the clock, with seen the clock's advances when it was made
// pending, and by a look that watches on, with the advances now. Inside a
// bubble synctest itself reports a goroutine that waits for ever
// ("deadlock").
func (c *Clock) watch(seen uint64) {
	if c.settle.bubble != 0 || c.settle.oracle == nil {
		return
	}
	w := &c.wd
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil || w.closed {
		return
	}
	w.seen = seen
	w.timer = time.AfterFunc(waitLimit(), c.bark)
}

// stopWatch stops the watchdog for good: the clock is closed.
func (c *Clock) stopWatch() {
	w := &c.wd
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
}

// bark runs when the watchdog's time is up. If an advance began since it
// was armed, or one is running, all is well: it watches on while something
// is pending. Otherwise, if the goroutine that runs the test (its stack
// starts in testing.tRunner, or it made the clock) is itself parked on the
// clock, nothing can end its wait: bark reports it through the clock's t
// and closes the clock, which releases the wait, so the test ends with the
// report instead of hanging until go test's timeout.
func (c *Clock) bark() {
	if f := onLook.Load(); f != nil {
		defer (*f)()
	}
	w := &c.wd
	w.mu.Lock()
	w.timer = nil
	if w.closed {
		w.mu.Unlock()
		return
	}
	seen := w.seen
	w.mu.Unlock()
	c.mu.Lock()
	pending := c.timers.Len()
	armers := make(map[string]site, pending)
	for t := range c.timers.all {
		if fn := t.site.function(); fn != "" {
			armers[fn] = t.site
		}
	}
	c.mu.Unlock()
	if pending == 0 {
		return // nothing waits on the clock; the next arm watches again
	}
	if c.advancing.Load() || c.advances.Load() != seen {
		c.watch(c.advances.Load())
		return
	}
	g, at, ok := c.stuckTester(armers)
	if !ok {
		c.watch(c.advances.Load())
		return
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	c.t.Errorf("fakeclock: goroutine %d, which runs the test, has waited on this clock for %s of real time while no advance began: it %s, "+
		"and it is the goroutine that would advance the clock, so nothing can end the wait. The call under test was made on the test's goroutine: "+
		"start it on a goroutine of its own (go, or recorder.Start) and advance the clock from the test (Step). "+
		"The clock is closed now, which ends the wait: the code under test ran on without fake time.",
		g.ID, schedfmt.Duration(waitLimit()), at)
	w.mu.Unlock()
	c.Close()
}

// stuckTester finds the goroutine that runs the test parked on this clock:
// in its Sleep, or waiting (a channel receive, a select) in the function
// that armed one of its pending timers. at says where.
func (c *Clock) stuckTester(armers map[string]site) (settle.Goroutine, string, bool) {
	v := c.view()
	for _, g := range v.Goroutines {
		if g.Class() != settle.Idle || !(g.HasFrame("testing.tRunner") || g.ID == c.maker) {
			continue
		}
		frames := g.Frames()
		for i, f := range frames {
			if strings.HasPrefix(f.Function, "runtime.") || strings.HasPrefix(f.Function, ctxPrefix) {
				continue // the runtime's wait, or clockctx.Sleep's select
			}
			if f.Function == methodPrefix+"Sleep" && i+1 < len(frames) {
				caller := frames[i+1]
				return g, fmt.Sprintf("sleeps in Clock.Sleep (at %s, in %s)", caller.Site(), caller.Function), true
			}
			if s, ok := armers[f.Function]; ok {
				return g, fmt.Sprintf("waits in a %s (at %s, in %s) for a timer of this clock it armed at %s", g.State, f.Site(), f.Function, s), true
			}
			break // the waiting frame is neither: not a wait on this clock
		}
	}
	return settle.Goroutine{}, "", false
}
