package fakeclock

import "time"

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
