package fakeclock

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/retrykit/retrykit/internal/settle"
)

// cleanup is registered with t.Cleanup by New.
func (c *Clock) cleanup() {
	c.mu.Lock()
	verified := c.verified
	c.mu.Unlock()
	if c.opts.leakCheck && !verified {
		msg, note := c.leaks("Cleanup")
		if note != "" {
			c.t.Logf("%s", note)
		}
		if msg != "" {
			c.t.Errorf("%s", msg)
		}
	}
	c.Close()
}

// VerifyIdle fails the test, through the t given to [New], if anything is
// pending on the clock now, once the code under test has settled: a timer,
// a ticker, an AfterFunc, a context deadline, a goroutine parked in Sleep,
// or an After a goroutine of the test waits on (an After nobody waits on
// whose channel the garbage collector has not reclaimed is logged with
// t.Logf, "cannot tell", never failed). It reports what the leak
// check at the end of the test reports, at the caller's line.
//
// Call it as the last line of a test. The leak check that New registers
// runs as a t.Cleanup, after the test's defers, after the end of
// t.Context() and after cleanups registered later than New, such as a
// t.Cleanup(cancel): a ticker or a loop that stops only when its context
// is canceled looks clean by then. VerifyIdle runs before all of those
// (see the Example). Once it has reported a leak, the check at cleanup
// does not report it again.
func (c *Clock) VerifyIdle() {
	c.t.Helper()
	msg, note := c.leaks("VerifyIdle")
	if note != "" {
		c.t.Logf("%s", note)
	}
	if msg != "" {
		c.mu.Lock()
		c.verified = true
		c.mu.Unlock()
		c.t.Errorf("%s", msg)
	}
}

// leaks returns what is still pending on the clock once the code under
// test has settled, as a report, or "" when nothing is; and note, the
// Afters it cannot tell about, or "".
//
// Its three verdicts rest on this: a timer, ticker, AfterFunc, context
// deadline or Sleep still in the clock is pending, for sure (the clock
// holds it); an After with a goroutine of the test blocked where it was
// armed is pending, for sure (the dump shows the goroutine there); an
// After whose channel the garbage collector reclaimed is gone (its weak
// pointer reads nil after a whole cycle). An After whose weak pointer
// still reads non-nil, and that no goroutine waits on, is the case the
// runtime does not promise to decide — weak.Pointer.Value is not
// guaranteed ever to return nil — so it is no leak, but a note, printed
// with t.Logf: "cannot tell". (Had its channel really been kept, it would
// fire into its buffer and harm nothing, as a time.After does.)
func (c *Clock) leaks(op string) (msg, note string) {
	// Code told to stop by an earlier cleanup may still be stopping its
	// timers: let it settle first.
	settleErr := c.settle.settle(context.Background(), op)
	c.dropReclaimedAfters()
	c.mu.Lock()
	all := c.timers.sorted()
	c.mu.Unlock()
	if len(all) == 0 {
		return "", ""
	}
	v := c.view()
	var ts, unsure []*timer
	for _, t := range all {
		if t.kind == KindAfter && len(blockedIn(v, t.site.function())) == 0 {
			unsure = append(unsure, t)
			continue
		}
		ts = append(ts, t)
	}
	if len(unsure) > 0 {
		var n strings.Builder
		fmt.Fprintf(&n, "fakeclock: cannot tell whether %d After still pending on the clock %s leaked: no goroutine of the test waits where it was armed, and the garbage collector has not reclaimed its channel (the runtime does not promise it ever will); not reported as a leak:", len(unsure), whenOf(op))
		for _, t := range unsure {
			n.WriteString("\n    " + t.waiter().String())
		}
		note = n.String()
	}
	if len(ts) == 0 {
		return "", note
	}
	var b strings.Builder
	noun := "timers"
	if len(ts) == 1 {
		noun = "timer"
	}
	fmt.Fprintf(&b, "fakeclock: %d %s still pending on the clock %s (stop them, cancel their contexts, or pass fakeclock.WithoutLeakCheck()):", len(ts), noun, whenOf(op))
	var waiting []settle.Goroutine
	for _, t := range ts {
		b.WriteString("\n    " + t.waiter().String())
		switch t.kind {
		case KindSleep:
			b.WriteString(" (a goroutine is parked in Sleep)")
		case KindAfter:
			blocked := blockedIn(v, t.site.function())
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
	writeElsewhere(&b, c.elsewhere(v))
	if settleErr != nil {
		b.WriteString("\n" + settleErr.Error())
	}
	return b.String(), note
}

// whenOf says when a leak check runs: "at the end of the test" or "at
// VerifyIdle".
func whenOf(op string) string {
	if op == "VerifyIdle" {
		return "at VerifyIdle"
	}
	return "at the end of the test"
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
// channel keeps it reachable, so such an After stays and is reported; one
// the collector has not reclaimed though nobody waits on it is a "cannot
// tell" (see leaks).
func (c *Clock) dropReclaimedAfters() {
	c.mu.Lock()
	found := false
	for t := range c.timers.all {
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
	for t := range c.timers.all {
		if t.kind == KindAfter && !t.weak.live() {
			dead = append(dead, t)
		}
	}
	for _, t := range dead {
		c.timers.remove(t.idx)
	}
}

// view takes a snapshot of the goroutines and marks those of the test: the
// settle oracle's scope outside a bubble, the bubble's goroutines inside
// one. The caller's own goroutine is left out.
func (c *Clock) view() settle.View {
	if c.settle.bubble != 0 {
		return settle.LookBubble(c.settle.bubble)
	}
	return c.settle.oracle.Look()
}

// blockedIn returns the goroutines of the test blocked on in-process
// synchronization with fn, the function that armed a waiter, on their
// stack.
func blockedIn(v settle.View, fn string) []settle.Goroutine {
	if fn == "" {
		return nil
	}
	var out []settle.Goroutine
	for i, g := range v.Goroutines {
		if v.In[i] && g.Class() == settle.Idle && g.HasFrame(fn) {
			out = append(out, g)
		}
	}
	return out
}

func appendGoroutine(gs []settle.Goroutine, g settle.Goroutine) []settle.Goroutine {
	for _, h := range gs {
		if h.ID == g.ID {
			return gs
		}
	}
	return append(gs, g)
}
