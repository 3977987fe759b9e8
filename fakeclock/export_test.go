package fakeclock

import (
	"errors"
	"runtime"
	"time"
)

// SetTrace makes the clock's settle oracle report its decisions to f.
func SetTrace(c *Clock, f func(format string, args ...any)) { c.settle.oracle.Trace = f }

// SetSlowLook sets the look cost above which, and the goroutine count
// from which, a clock says its looks are slow, for a test, and restores
// them after.
func SetSlowLook(t interface{ Cleanup(func()) }, d time.Duration, goroutines int) {
	old, oldN := slowLook.Swap(int64(d)), manyGoroutines.Swap(int64(goroutines))
	t.Cleanup(func() { slowLook.Store(old); manyGoroutines.Store(oldN) })
}

// SetSyncWaitLimit shortens the watchdog's limit for a test and restores
// it after.
func SetSyncWaitLimit(t interface{ Cleanup(func()) }, d time.Duration) {
	old := syncWaitLimit.Swap(int64(d))
	t.Cleanup(func() { syncWaitLimit.Store(old) })
}

// OnWatchdogLook makes every look of a watchdog send on the returned
// channel, for a test; it is reset after.
func OnWatchdogLook(t interface{ Cleanup(func()) }) <-chan struct{} {
	ch := make(chan struct{}, 100)
	f := func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	onLook.Store(&f)
	t.Cleanup(func() { onLook.Store(nil) })
	return ch
}

// OnArmed makes f run on the goroutine that arms a timer on a clock, once
// the timer is pending and before the clock's watchdog is told of it, for
// a test; it is reset after. f is told which clock armed.
func OnArmed(t interface{ Cleanup(func()) }, f func(*Clock)) {
	onArmed.Store(&f)
	t.Cleanup(func() { onArmed.Store(nil) })
}

// LookNow waits, for at most 2s of real time, until c's watchdog watches
// and the goroutine that runs the test is parked on c; then it stops the
// watchdog's timer and looks at once, as the timer would have.
func LookNow(c *Clock) error {
	for limit := time.Now().Add(2 * time.Second); ; runtime.Gosched() {
		if time.Now().After(limit) {
			return errors.New("LookNow: within 2s, the watchdog did not watch, or the goroutine that runs the test did not park on the clock")
		}
		c.wd.mu.Lock()
		watching := c.wd.timer != nil
		c.wd.mu.Unlock()
		if !watching {
			continue
		}
		c.mu.Lock()
		armers := make(map[string]site)
		for t := range c.timers.all {
			if fn := t.site.function(); fn != "" {
				armers[fn] = t.site
			}
		}
		c.mu.Unlock()
		if _, _, ok := c.stuckTester(armers); ok {
			break
		}
	}
	c.wd.mu.Lock()
	if c.wd.timer != nil {
		c.wd.timer.Stop()
		c.wd.timer = nil
	}
	c.wd.mu.Unlock()
	c.bark()
	return nil
}
