package conformance

import (
	"context"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/seqrand"
)

// horizon bounds how far the suite advances time to let a call finish:
// every wait of the Policy at its widest, the longest hint, and an hour
// more; without an attempt limit, twice the Budget and twice the widest
// wait past it.
func (c *config) horizon() time.Duration {
	var h time.Duration
	if n := c.spec.retries(); n >= 0 {
		h = satdur.Add(time.Hour, c.spec.AttemptTimeout)
		if c.spec.AttemptTimeout > 0 {
			h = satdur.Add(h, c.cleanupAfterCancel())
		}
		for k := 1; k <= n; k++ {
			h = satdur.Add(h, c.ladderWindow(k).Max)
		}
	} else {
		h = satdur.Add(c.spec.Budget, c.ladderWindow(64).Max)
		h = satdur.Add(h, h)
	}
	if c.spec.Hints != nil {
		// With no ceiling the suite waits for its longest hint but the
		// one of a Duration's size, which it watches only this long.
		hint := c.spec.ra.Max
		if hint == retryafter.Forever {
			hint, _ = c.hintSeconds()
		}
		h = satdur.Add(h, hint)
	}
	return h
}

// cleanupAfterCancel is how long the suite's hung attempt takes to return
// after its context ends (Spec.AttemptTimeout without AbandonsAttempt):
// longer than the widest wait of the first retry, so that code that
// retries without waiting for the attempt to return begins its next one
// before it has.
func (c *config) cleanupAfterCancel() time.Duration {
	return satdur.Add(time.Second, c.ladderWindow(1).Max)
}

// hangUntil is the hung attempt: it returns when the suite lets it go or,
// unless the Spec says the code abandons attempts, cleanupAfterCancel
// after ctx ends, with ctx's error; and it notes when it returned.
func (tr *trial) hangUntil(ctx context.Context) error {
	defer func() {
		now := now(tr.clk)
		tr.hungReturned.Store(&now)
	}()
	done := ctx.Done()
	if tr.c.spec.AbandonsAttempt {
		done = nil // deaf to its context
	}
	select {
	case <-tr.hang:
		return nil
	case <-done:
	}
	d := tr.c.cleanupAfterCancel()
	if tr.clk != nil {
		tr.clk.Sleep(d)
	} else {
		time.Sleep(d)
	}
	return ctx.Err()
}

// limit is how many attempts of one call the suite answers before it
// stops answering, so that a loop that never stops parks instead of
// spinning: a few more than the Policy allows.
func (c *config) limit() int {
	if n := c.spec.Policy.Attempts; n > 0 {
		return n + 5
	}
	return 1000
}

// trial is the code under test, built once with its seams — one fake
// clock (nil in a bubble), one random source, and for a client one scripted
// transport — and called one or more times.
type trial struct {
	t    tb
	c    *config
	clk  *fakeclock.Clock
	loop Loop
	do   Do
	tr   *httpscript.Transport
	n    int // calls begun
	// hang, when made, holds the trial's first attempt until it is
	// closed (AttemptTimeout): whatever its context says with
	// AbandonsAttempt, or until its context ends, and then for
	// cleanupAfterCancel more.
	hang chan struct{}
	hung atomic.Bool
	// bclk is Seams.Clock in a bubble; nil on the fake clock.
	bclk *bubbleClock
	// hungReturned is when the hung attempt returned, on the call's
	// clock; zero until it does.
	hungReturned atomic.Pointer[time.Time]

	mu sync.Mutex // guards n
}

// newTrial builds the code under test at src. For a client, script is the
// transport's script for every call the trial will make, calls of them.
func (c *config) newTrial(t tb, src *seqrand.Source, script []answer, calls int) *trial {
	t.Helper()
	tr := &trial{t: t, c: c}
	if !c.bubble {
		// NoLeaks checks for timers left behind; every other property
		// leaves them to it, so that one bug fails one property.
		tr.clk = fakeclock.New(t, fakeclock.WithoutLeakCheck())
	}
	s := Seams{Rand: src}
	if tr.clk != nil {
		s.Clock, s.Sleep = tr.clk, tr.clk.SleepContext
	} else {
		// In a bubble the code's clock is the bubble's time, behind the
		// clockwork.Clock interface, with a register of what is armed on it.
		tr.bclk = newBubbleClock()
		s.Clock = tr.bclk
		s.Sleep = func(ctx context.Context, d time.Duration) error { return clockctx.Sleep(ctx, tr.bclk, d) }
	}
	switch c.shape {
	case "loop":
		if tr.loop = c.newLoop(s); tr.loop == nil {
			t.Fatalf("conformance: the loop adapter returned a nil Loop")
		}
	case "client":
		tr.tr = httpscript.NewTransport(t, c.replies(script, calls*c.limit())...)
		if tr.clk != nil {
			tr.tr.WithClock(tr.clk)
		}
		s.Transport = tagger{tr.tr, tr}
		if tr.do = c.newClient(s); tr.do == nil {
			t.Fatalf("conformance: the client adapter returned a nil Do")
		}
	}
	return tr
}

// clock is the clock a call is timed on: nil (the time package) in a
// bubble.
func (tr *trial) clock() clockwork.Clock {
	if tr.clk == nil {
		return nil
	}
	return tr.clk
}

// step advances the trial's clock by d and lets the code settle.
func (tr *trial) step(d time.Duration) {
	tr.t.Helper()
	if tr.clk == nil {
		sleepAndWait(d)
		return
	}
	tr.clk.Step(d)
}

// sleepAndWait moves the clock of the suite's bubble by d and lets the
// woken code run until it blocks again, as bubble.SleepAndWait does (the
// suite keeps below package bubble, which builds on retrytest too).
func sleepAndWait(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
	synctest.Wait()
}
