package fakeclock

import (
	"cmp"
	"slices"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// timer is one thing waiting on the clock: a sleep, a channel timer, an
// AfterFunc, a ticker or a context deadline. Its fields are guarded by the
// clock's mutex.
type timer struct {
	c      *Clock
	kind   Kind
	ch     chan time.Time // nil for After, AfterFunc and contexts
	weak   weakChan       // After's channel, which the clock does not keep alive
	f      func()         // AfterFunc
	ctx    *deadlineCtx   // contexts
	period time.Duration  // tickers

	when    time.Time     // deadline while pending
	delay   time.Duration // what was asked for when last armed
	armedAt time.Time     // clock time when last armed
	seq     uint64        // arming order, for ties
	idx     int           // index in the heap; -1 when not pending
	wait    int           // index of its latest arming in the clock's waits; -1 for tickers and contexts
	site    site          // where it was last armed
}

// sends reports whether t sends the time on a channel when it fires.
func (t *timer) sends() bool { return t.ch != nil || t.kind == KindAfter }

// sendCh returns the channel t sends on: nil for AfterFunc and contexts,
// and for an After whose channel nobody references any more.
func (t *timer) sendCh() chan time.Time {
	if t.kind == KindAfter {
		return t.weak.get()
	}
	return t.ch
}

// Chan returns the timer's channel; nil for a timer made by AfterFunc.
func (t *timer) Chan() <-chan time.Time {
	if t.ch == nil {
		return nil
	}
	return t.ch
}

// Stop prevents the timer from firing. It returns true if the call stopped
// the timer, false if it had already fired or been stopped. As with Go 1.23
// timers, a fired value that nobody received is discarded, and Stop then
// returns true.
func (t *timer) Stop() bool {
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	stopped := c.removeLocked(t)
	if stopped {
		c.counts.Stopped++
	}
	return stopped
}

// Reset changes the timer to fire after d, discarding any fired value that
// nobody received. It returns true if the timer was pending (or held such a
// value). A timer made by AfterFunc runs its function again.
func (t *timer) Reset(d time.Duration) bool {
	s := callers()
	c := t.c
	c.mu.Lock()
	was := c.removeLocked(t)
	c.counts.Reset++
	t.site = s
	action := c.armLocked(t, d, false)
	c.mu.Unlock()
	run(action)
	return was
}

// ticker adapts a periodic timer to [clockwork.Ticker].
type ticker struct{ t *timer }

// Chan returns the channel the ticks are sent on.
func (k *ticker) Chan() <-chan time.Time { return k.t.ch }

// Stop turns the ticker off and discards a tick nobody received. A stopped
// ticker can be Reset.
func (k *ticker) Stop() {
	c := k.t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if k.t.idx >= 0 {
		c.counts.Stopped++
	}
	c.removeLocked(k.t)
}

// Reset stops the ticker, discards a tick nobody received, and restarts it
// with period d, the next tick d from now. It panics if d is not positive.
func (k *ticker) Reset(d time.Duration) {
	if d <= 0 {
		panic("fakeclock: Ticker.Reset: non-positive interval " + schedfmt.Duration(d))
	}
	s := callers()
	t := k.t
	c := t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(t)
	c.counts.Reset++
	t.period = d
	t.site = s
	c.armLocked(t, d, false)
}

func (t *timer) waiter() Waiter {
	return Waiter{
		Kind:     t.kind,
		Deadline: t.when,
		Delay:    t.delay,
		Period:   t.period,
		Site:     t.site.String(),
		start:    t.c.start,
	}
}

// timerHeap orders timers by deadline, then by arming order.
type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }

func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}

func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx = i
	h[j].idx = j
}

func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.idx = len(*h)
	*h = append(*h, t)
}

func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.idx = -1
	*h = old[:n-1]
	return t
}

func (h timerHeap) peek() *timer {
	if len(h) == 0 {
		return nil
	}
	return h[0]
}

// sorted returns the pending timers in firing order.
func (h timerHeap) sorted() []*timer {
	out := slices.Clone([]*timer(h))
	slices.SortFunc(out, func(a, b *timer) int {
		if c := a.when.Compare(b.when); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return out
}
