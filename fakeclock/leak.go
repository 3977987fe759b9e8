package fakeclock

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/retrykit/retrykit/internal/stackscan"
)

// cleanup is registered with t.Cleanup by New.
func (c *Clock) cleanup() {
	if c.opts.leakCheck {
		c.checkLeaks()
	}
	c.Close()
}

// checkLeaks fails the test if something is still pending on the clock
// once the code under test has settled. An After counts only while its
// channel is reachable; see the package documentation.
func (c *Clock) checkLeaks() {
	// Code told to stop by an earlier cleanup may still be stopping its
	// timers: let it settle first.
	settleErr := c.settle.settle(context.Background(), "Cleanup")
	c.dropReclaimedAfters()
	c.mu.Lock()
	ts := c.timers.sorted()
	c.mu.Unlock()
	if len(ts) == 0 {
		return
	}
	var b strings.Builder
	noun := "timers"
	if len(ts) == 1 {
		noun = "timer"
	}
	fmt.Fprintf(&b, "fakeclock: %d %s still pending on the clock at the end of the test (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):", len(ts), noun)
	var (
		waiting []stackscan.Goroutine
		gs      []stackscan.Goroutine // taken at the first After
		in      []bool
	)
	for _, t := range ts {
		b.WriteString("\n    " + t.waiter().String())
		switch t.kind {
		case KindSleep:
			b.WriteString(" (a goroutine is parked in Sleep)")
		case KindAfter:
			if gs == nil {
				gs, in = c.familySnapshot()
			}
			blocked := blockedIn(gs, in, t.site.function())
			if len(blocked) == 0 {
				b.WriteString(" (its channel is still referenced, though no goroutine of the test is blocked where it was armed)")
				break
			}
			ids := make([]string, len(blocked))
			for i, g := range blocked {
				ids[i] = strconv.FormatInt(g.ID, 10)
				waiting = appendGoroutine(waiting, g)
			}
			fmt.Fprintf(&b, " (goroutine %s of the test still blocked in %s)", strings.Join(ids, ", "), t.site.function())
		}
	}
	for _, g := range waiting {
		b.WriteString("\n\n" + strings.TrimRight(string(g.Text), "\n"))
	}
	if settleErr != nil {
		b.WriteString("\n" + settleErr.Error())
	}
	c.t.Errorf("%s", b.String())
}

// dropReclaimedAfters takes out of the clock every After whose channel the
// garbage collector reclaims. Since Go 1.23 a timer channel that nothing
// references is garbage, and so is a pending After that the code under
// test stopped waiting for, as in
//
//	select {
//	case <-ctx.Done():
//		return ctx.Err()
//	case <-clk.After(d):
//	}
//
// once it returned through ctx.Done(). A goroutine still parked on the
// channel keeps it reachable, so such an After stays and is reported.
func (c *Clock) dropReclaimedAfters() {
	c.mu.Lock()
	found := false
	for _, t := range c.timers {
		found = found || t.kind == KindAfter
	}
	c.mu.Unlock()
	if !found {
		return
	}
	runtime.GC() // a whole cycle, sweep included: weak pointers to garbage are nil after it
	c.mu.Lock()
	defer c.mu.Unlock()
	var dead []*timer
	for _, t := range c.timers {
		if t.kind == KindAfter && !t.weak.live() {
			dead = append(dead, t)
		}
	}
	for _, t := range dead {
		heap.Remove(&c.timers, t.idx)
	}
}

// familySnapshot takes a snapshot of the goroutines and reports which of
// them belong to the test: the settle oracle's scope outside a bubble,
// the bubble's goroutines inside one, and all of them with a custom
// settle. The caller's own goroutine is left out.
func (c *Clock) familySnapshot() ([]stackscan.Goroutine, []bool) {
	_, dump := stackscan.Snapshot(nil)
	gs := stackscan.Parse(dump)
	var in []bool
	switch {
	case c.settle.oracle != nil:
		in = c.settle.oracle.scope(gs)
	default:
		in = make([]bool, len(gs))
		for i, g := range gs {
			in[i] = !c.settle.bubble || g.Bubble
		}
	}
	if len(in) > 0 {
		in[0] = false // gs[0] is the goroutine taking the snapshot
	}
	return gs, in
}

// blockedIn returns the goroutines of the family blocked on in-process
// synchronization with fn, the function that armed a waiter, on their
// stack.
func blockedIn(gs []stackscan.Goroutine, in []bool, fn string) []stackscan.Goroutine {
	if fn == "" {
		return nil
	}
	frame := []byte("\n" + fn + "(")
	var out []stackscan.Goroutine
	for i, g := range gs {
		if in[i] && g.Class() == stackscan.Idle && bytes.Contains(g.Text, frame) {
			out = append(out, g)
		}
	}
	return out
}

func appendGoroutine(gs []stackscan.Goroutine, g stackscan.Goroutine) []stackscan.Goroutine {
	for _, h := range gs {
		if h.ID == g.ID {
			return gs
		}
	}
	return append(gs, g)
}
