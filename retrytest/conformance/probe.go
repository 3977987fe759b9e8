package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/retrykit/retrykit/internal/schedfmt"
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
}

// clockProbe is WaitsOnTheClock's finding, made once per run: "" unless
// the code waits on something other than the suite's fake clock. Inside
// a bubble, and for a pure policy, there is no other clock.
func (c *config) clockProbe(*testing.T) string {
	return c.runProbe().elsewhere
}

func (c *config) runProbe() probeResult {
	if c.shape == "policy" || c.inBubble() {
		return probeResult{}
	}
	c.probeOnce.Do(func() {
		rec := &checkT{}
		var res probeResult
		rec.run(func() { res = c.probeCall(rec) })
		if st, msg := rec.result(); st != Passed {
			res = probeResult{failure: msg}
		}
		c.probeRes = res
	})
	return c.probeRes
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
	res := c.runProbe()
	switch {
	case res.failure != "":
		t.Errorf("%s", res.failure)
	case res.elsewhere != "":
		t.Errorf("%s", res.elsewhere)
	case !res.sawWait:
		t.Skip("the call returned after its first attempt without a wait, so there was no wait to see (AttemptCount reports a missing retry)")
	}
}

func skipProbe(c *config) string {
	switch {
	case c.inBubble():
		return "in a synctest bubble the time package is the bubble's fake clock: every wait is on it"
	case c.spec.retries() == 0:
		return "the Policy makes one attempt: there is no wait to see"
	}
	return ""
}
