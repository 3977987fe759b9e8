package conformance

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/internal/settle"
	"github.com/retrykit/retrykit/seqrand"
)

// probeName is the property that finds code waiting on a clock other than
// the suite's; the properties that read waits skip, naming it, when it
// fails, so that one cause gives one failure.
const probeName = "WaitsOnTheClock"

// probeWaits is how many waits of a call that always fails the probe
// follows.
const probeWaits = 3

// probeResult is what the probe found: why the code waits elsewhere ("":
// it does not), and whether it saw a wait on the suite's clock at all.
type probeResult struct {
	elsewhere string
	sawWait   bool
	returned  bool
	// failure is why the probe could not run the code (a nil adapter,
	// a request the suite cannot read): WaitsOnTheClock reports it, and
	// the other properties run and meet it themselves.
	failure string
	// timeItself says, in a bubble, that the code never used Seams.Clock:
	// it calls the time package itself, whose time there is the suite's.
	timeItself bool
}

// clockProbe is WaitsOnTheClock's finding, made once per run: "" unless
// the code waits on something other than the suite's clock. For a pure
// policy there is no other clock. In a bubble it is made in a bubble of
// bt's, unless the property that asks runs in one already (inside).
func (c *config) clockProbe(bt *testing.T) string {
	return c.runProbe(bt, false).elsewhere
}

func (c *config) runProbe(bt *testing.T, inside bool) probeResult {
	if c.shape == "policy" {
		return probeResult{}
	}
	c.probeOnce.Do(func() {
		rec := newCheckT()
		var res probeResult
		probe := func() {
			rec.run(func() {
				if c.inBubble() {
					res = c.probeBubble(rec)
				} else {
					res = c.probeCall(rec)
				}
			})
		}
		if c.inBubble() && !inside {
			if stuck := c.inScope(bt, probe); stuck != "" {
				rec.Errorf("%s", stuck)
			}
		} else {
			probe()
		}
		if st, msg := rec.result(); st != Passed {
			res = probeResult{failure: msg}
		}
		c.probeRes = res
	})
	return c.probeRes
}

// probeBubble is probeCall in a bubble, where the code's waits are on the
// bubble's time whatever it waits on: it follows the call's first waits,
// and finds code handed Seams.Clock that used it but waits on something
// else (a time.After of its own, say) — code that would hide in a bubble
// a wait the fake clock outside one cannot end. Code that never touched
// Seams.Clock calls the time package itself: in a bubble that is no fault.
func (c *config) probeBubble(t tb) probeResult {
	t.Helper()
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 1)
	cl := tr.begin([]answer{transient}, nil)
	var res probeResult
	for range probeWaits {
		sleepAndWait(0)
		if cl.rc.Returned() {
			res.returned = true
			break
		}
		next, ok := tr.bclk.nextDeadline()
		switch {
		case ok:
			res.sawWait = true
			sleepAndWait(max(0, time.Until(next)))
			continue
		case !tr.bclk.used():
			res.timeItself = true
			return res
		}
		res.elsewhere = fmt.Sprintf("after %s the call, which used Seams.Clock, waits on something other than it: a wait of its own on the time package would hide in a bubble, and hang the call on the fake clock outside one\n%s%s",
			schedfmt.Count(len(cl.attempts()), "attempt"), cl.table(), elsewhereText(bubbleWaits()))
		return res
	}
	return res
}

// bubbleWaits lists, one line each, the goroutines of the caller's bubble
// that wait in time.Sleep, a select or a receive: what the code waits on.
func bubbleWaits() []string {
	_, me := goheader.Current()
	_, dump := settle.Snapshot(nil)
	var out []string
	for _, g := range settle.Parse(dump) {
		if g.Bubble != me || g.Bubble == 0 {
			continue
		}
		for _, f := range g.Frames() {
			if strings.HasPrefix(f.Function, "runtime.") || strings.HasPrefix(f.Function, "internal/") || strings.HasPrefix(f.Function, "time.") {
				continue
			}
			if strings.Contains(f.Function, "conformance.") || strings.Contains(f.Function, "testing.") {
				break
			}
			out = append(out, fmt.Sprintf("goroutine %d waits in %s (at %s, in %s)", g.ID, g.State, f.Site(), f.Function))
			break
		}
	}
	return out
}

// probeCall makes a call that always fails and follows its first waits:
// after each attempt the call must return or wait on the suite's clock,
// and no advance may have had to wait out a real time.Sleep.
func (c *config) probeCall(t tb) probeResult {
	t.Helper()
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 1)
	cl := tr.begin([]answer{transient}, nil)
	var res probeResult
	for range probeWaits {
		tr.clk.Step(0)
		if cl.rc.Returned() {
			res.returned = true
			break
		}
		next, ok := tr.clk.NextDeadline()
		if !ok {
			res.elsewhere = fmt.Sprintf("after %s the call has neither returned nor armed a timer on the suite's clock: it waits on something that no step of that clock can end\n%s%s",
				schedfmt.Count(len(cl.attempts()), "attempt"), cl.table(), elsewhereText(tr.clk.WaitingElsewhere()))
			return res
		}
		res.sawWait = true
		tr.clk.Step(next.Sub(tr.clk.Now()))
	}
	var slept []string
	for _, l := range tr.clk.WaitingElsewhere() {
		if strings.Contains(l, "time.Sleep") {
			slept = append(slept, l)
		}
	}
	if len(slept) > 0 {
		res.elsewhere = "the call slept in real time: an advance of the suite's clock had to wait out a time.Sleep\n" + cl.table() + elsewhereText(slept)
	}
	return res
}

// whereElsewhere is the first wait of the probe's finding that is not on
// the suite's clock — the goroutine and the line — or its first line: a
// skip names the cause itself, so that it stays true when go test -run
// leaves WaitsOnTheClock out.
func whereElsewhere(finding string) string {
	lines := strings.Split(finding, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "waiting on something other than the suite's clock:") && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
	}
	return firstLine(finding)
}

// elsewhereText lists the waits that are not on the suite's clock, with
// the fix.
func elsewhereText(lines []string) string {
	var b strings.Builder
	if len(lines) == 0 {
		b.WriteString("\nno goroutine's stack shows a wait on another clock: the code is blocked on something else (a channel, a lock) that the suite does not end")
	} else {
		b.WriteString("\nwaiting on something other than the suite's clock:")
		for _, l := range lines {
			b.WriteString("\n    " + l)
		}
	}
	b.WriteString("\nfix: make every wait of the code use Seams.Clock (or Seams.Sleep): time.After, time.Sleep, time.NewTimer and context.WithTimeout wait on the real clock; " +
		"code that cannot take a clock runs in a testing/synctest bubble: pass RunInBubble()")
	return b.String()
}

// waitsOnTheClock is the property: the code waits on the suite's clock.
// It needs to see one wait on the clock, or the call end; a call that
// ends without waiting leaves it nothing to judge.
func waitsOnTheClock(t tb, c *config) {
	res := c.runProbe(nil, true)
	switch {
	case res.failure != "":
		t.Errorf("%s", res.failure)
	case res.elsewhere != "":
		t.Errorf("%s", res.elsewhere)
	case res.timeItself:
		t.Skip("the code does not use Seams.Clock: it calls the time package itself, whose time in a synctest bubble is the suite's")
	case !res.sawWait:
		t.Skip("the call returned after its first attempt without a wait, so there was no wait to see (AttemptCount reports a missing retry)")
	}
}

func skipProbe(c *config) string {
	switch {
	case c.spec.retries() == 0:
		return "the Policy makes one attempt: there is no wait to see"
	}
	return ""
}
