package conformance

import (
	"errors"
	"fmt"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/retrykit/retrykit/internal/settle"
)

// errBubbleNeedsT is the error of a Check form given RunInBubble.
var errBubbleNeedsT = errors.New("conformance: RunInBubble needs a *testing.T, which a Check form has not: a testing/synctest bubble is opened by synctest.Test(t, ...); call the Test form (TestLoop, TestClient), which returns the Report as well")

// runTest runs every property as a subtest of t named for it, and every
// case of a property as a subtest of that one, so that -run selects
// properties and cases. Each property runs with a checkT — in a bubble of
// its subtest with RunInBubble — and what it recorded is then reported
// through the subtests, outside any bubble: a skip decided inside a
// bubble is a skip (synctest.Test would turn it into a pass), and every
// failure points at the line of the test that called the Test form. It
// returns the Report, and logs one line summing up the skips and waivers.
func runTest(t *testing.T, c *config, err error, props []property) *Report {
	t.Helper()
	if err == nil {
		err = c.checkOptions()
	}
	if err == nil {
		err = c.checkWaivers(props)
	}
	if err != nil {
		t.Fatalf("%v", err)
		return nil
	}
	r := &Report{Shape: c.shape, Warnings: c.warnings}
	for _, w := range c.warnings {
		t.Logf("conformance: warning: %s", w)
	}
	for _, p := range props {
		t.Run(p.name, func(t *testing.T) {
			t.Helper()
			res := c.runProperty(t, p)
			r.Results = append(r.Results, res)
			reportResult(t, res)
		})
	}
	if w := c.unreportedLeaks(); w != "" {
		r.Warnings = append(r.Warnings, w)
		t.Logf("conformance: %s", w)
	}
	t.Log(verdict.Summary(r))
	return r
}

// reportResult reports res through t, the property's subtest, and a
// subtest of t per case (see verdict.ReportTo).
func reportResult(t *testing.T, res Result) {
	t.Helper()
	verdict.ReportTo(t, res)
}

// runCheck runs every property with a checkT and returns the report.
func runCheck(c *config, err error, props []property) (*Report, error) {
	if err == nil {
		err = c.checkOptions()
	}
	if err == nil {
		err = c.checkWaivers(props)
	}
	if err == nil && c.inBubble() && c.bubbleT == nil {
		err = errBubbleNeedsT
	}
	if err != nil {
		return nil, err
	}
	r := &Report{Shape: c.shape, Warnings: c.warnings}
	for _, p := range props {
		if c.only != nil && !slices.Contains(c.only, p.name) {
			continue
		}
		r.Results = append(r.Results, c.runProperty(c.bubbleT, p))
	}
	if w := c.unreportedLeaks(); w != "" {
		r.Warnings = append(r.Warnings, w)
	}
	return r, nil
}

// unreportedLeaks names the goroutines the properties' bubbles left
// blocked when NoLeaks did not run to report them (go test -run left it
// out), or "".
func (c *config) unreportedLeaks() string {
	c.leaksMu.Lock()
	defer c.leaksMu.Unlock()
	if len(c.leaks) == 0 || c.leaksReported {
		return ""
	}
	return "NoLeaks did not run, and goroutines were left blocked in bubbles: " + strings.Join(c.leaks, "; ")
}

// runProperty runs p, in a bubble of bt when the config asks for one, and
// returns how it ended, its waivers applied.
func (c *config) runProperty(bt *testing.T, p property) Result {
	if p.skip != nil {
		if why := p.skip(c); why != "" {
			return c.waive(verdict.New(p.name, Skipped, why, nil))
		}
	}
	if p.waits && p.name != probeName {
		if why := c.clockProbe(bt); why != "" {
			msg := "the code waits on something other than the suite's clock, so its waits cannot be read (" + probeName + " reports it): " + whereElsewhere(why)
			return c.waive(verdict.New(p.name, Skipped, msg, nil))
		}
	}
	rec := newCheckT()
	stuck := c.inScope(bt, func() { rec.run(func() { p.run(rec, c) }) })
	res := rec.property(p.name)
	if stuck != "" {
		if p.name == "NoLeaks" {
			res.Message = joinLines(res.Message, stuck)
			verdict.SetOwn(&res, Failed)
		} else {
			// The leak is the call's, not the property's: NoLeaks reports
			// it (or, when it does not run, the run's last line), and the
			// property stands on what it observed.
			c.leaksMu.Lock()
			c.leaks = append(c.leaks, "left by a call of "+p.name+": "+stuck)
			c.leaksMu.Unlock()
		}
	}
	return c.waive(res)
}

// inScope runs f where the code under test runs: in a synctest bubble of
// bt with RunInBubble, else right here. A bubble whose goroutines are
// still blocked when f returns makes synctest.Test panic ("deadlock"),
// which would end the test binary: inScope recovers it and returns what
// it says, with the goroutines left blocked, so that the property fails
// by name instead.
func (c *config) inScope(bt *testing.T, f func()) (stuck string) {
	if !c.inBubble() {
		f()
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			if !strings.Contains(msg, "deadlock") {
				panic(r)
			}
			stuck = "the code left goroutines blocked for ever in the bubble, after the call ended (synctest: " + msg + ")" + bubbleLeft()
		}
	}()
	synctest.Test(bt, func(*testing.T) { f() })
	return ""
}

// bubbleLeft lists, one line each, the goroutines blocked in synctest
// bubbles: the frame each waits in.
func bubbleLeft() string {
	_, dump := settle.Snapshot(nil)
	var b strings.Builder
	for _, g := range settle.Parse(dump) {
		if g.Bubble == 0 {
			continue
		}
		for _, f := range g.Frames() {
			if strings.HasPrefix(f.Function, "runtime.") || strings.HasPrefix(f.Function, "internal/") {
				continue
			}
			fmt.Fprintf(&b, "\n    goroutine %d blocked in %s at %s, in %s", g.ID, g.State, f.Site(), f.Function)
			break
		}
	}
	return b.String()
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
