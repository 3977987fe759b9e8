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
	ch     chan time.Time // nil for Sleep, After, AfterFunc and contexts
	wake   chan struct{}  // Sleep's (a chan time.Time, whose values hold a pointer, costs two allocations)
	weak   weakChan       // After's channel, which the clock does not keep alive
	f      func()         // AfterFunc
	ctx    *deadlineCtx   // contexts
	period time.Duration  // tickers

	when  time.Time     // deadline while pending
	delay time.Duration // what was asked for when last armed
	seq   uint64        // arming order, for ties
	idx   int           // index in the heap; -1 when not pending
	wait  int           // index of its latest arming in the clock's waits; -1 for tickers and contexts
	site  site          // where it was last armed
}

// sends reports whether t sends on a channel when it fires: the time, or
// a Sleep's wake.
func (t *timer) sends() bool { return t.ch != nil || t.wake != nil || t.kind == KindAfter }

// send sends v on t's channel (a Sleep's wake: a value of none) without
// blocking, and reports whether it was sent: false when the channel is
// full (a tick nobody received) or gone (an After nobody references).
func (t *timer) send(v time.Time) bool {
	if t.wake != nil {
		select {
		case t.wake <- struct{}{}:
			return true
		default:
			return false
		}
	}
	if ch := t.sendCh(); ch != nil {
		select {
		case ch <- v:
			return true
		default:
		}
	}
	return false
}

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
	s := callerFrame()
	if !s.whole() {
		s = callers(0)
	}
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
	s := callerFrame()
	if !s.whole() {
		s = callers(0)
	}
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

// timerHeap is a 4-ary heap of the pending timers, earliest first (see
// before), as the runtime keeps its timers; each timer knows its index. It
// is typed, not container/heap's, and holds each timer's deadline next to
// it: a fleet's drain pops and pushes a timer per fired timer, and calls
// through an interface, or a look into every timer compared (and a
// time.Time compared), would cost more than the ordering itself.
type timerHeap []heapEntry

// heapEntry is a pending timer with its order: its deadline in Unix
// seconds and nanoseconds (exact for every time.Time), then its arming
// order.
type heapEntry struct {
	sec  int64
	nsec int32
	seq  uint64
	t    *timer
}

func (h timerHeap) Len() int { return len(h) }

// before reports whether a fires before b: by deadline, then in the order
// they were armed. It compares integers only, and is inlined in the
// heap's loops.
func before(a, b *heapEntry) bool {
	if a.sec != b.sec {
		return a.sec < b.sec
	}
	if a.nsec != b.nsec {
		return a.nsec < b.nsec
	}
	return a.seq < b.seq
}

// entry returns t's entry, with the order of its deadline and arming.
func entry(t *timer) heapEntry {
	return heapEntry{sec: t.when.Unix(), nsec: int32(t.when.Nanosecond()), seq: t.seq, t: t}
}

// push adds t.
func (h *timerHeap) push(t *timer) {
	*h = append(*h, heapEntry{})
	h.up(len(*h)-1, entry(t))
}

// pop removes and returns the earliest timer; the heap must not be empty.
func (h *timerHeap) pop() *timer { return h.remove(0) }

// remove removes and returns the timer at index i.
func (h *timerHeap) remove(i int) *timer {
	old := *h
	n := len(old) - 1
	t, last := old[i].t, old[n]
	old[n] = heapEntry{}
	*h = old[:n]
	if i < n {
		if !h.down(i, last) {
			h.up(i, last)
		}
	}
	t.idx = -1
	return t
}

// up puts e at index j, or above it while it fires before its parent.
func (h timerHeap) up(j int, e heapEntry) {
	for j > 0 {
		i := (j - 1) / 4
		p := &h[i]
		if !before(&e, p) {
			break
		}
		h[j], p.t.idx = *p, j
		j = i
	}
	h[j], e.t.idx = e, j
}

// down puts e at index i, or below it while a child fires before it, and
// reports whether it moved down.
func (h timerHeap) down(i int, e heapEntry) bool {
	i0, n := i, len(h)
	for {
		j := 4*i + 1 // the first child; j is made the earliest
		if j >= n {
			break
		}
		end := min(j+4, n)
		for k := j + 1; k < end; k++ {
			if before(&h[k], &h[j]) {
				j = k
			}
		}
		if !before(&h[j], &e) {
			break
		}
		h[i], h[j].t.idx = h[j], i
		i = j
	}
	h[i], e.t.idx = e, i
	return i > i0
}

func (h timerHeap) peek() *timer {
	if len(h) == 0 {
		return nil
	}
	return h[0].t
}

// all yields the pending timers, in no order.
func (h timerHeap) all(yield func(*timer) bool) {
	for _, e := range h {
		if !yield(e.t) {
			return
		}
	}
}

// shift moves every deadline by d, as Set does, keeping their order.
func (h timerHeap) shift(d time.Duration) {
	for i := range h {
		t := h[i].t
		t.when = t.when.Add(d)
		h[i] = entry(t)
	}
}

// sorted returns the pending timers in firing order.
func (h timerHeap) sorted() []*timer {
	out := make([]*timer, len(h))
	for i, e := range h {
		out[i] = e.t
	}
	slices.SortFunc(out, func(a, b *timer) int {
		if c := a.when.Compare(b.when); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	return out
}
