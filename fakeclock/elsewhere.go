package fakeclock

import (
	"reflect"
	"strings"

	"github.com/retrykit/retrykit/internal/settle"
)

// WaitingElsewhere describes, one line each, the goroutines of the code
// under test that are parked but not on this clock: asleep in time.Sleep,
// parked on another fake clock, or waiting in a select or a channel
// receive of the test's code where no function on the goroutine's stack
// armed a timer of this clock (a real time.After, a real timer or a real
// context deadline look like this). It also names the time.Sleep calls an
// advance had to wait out in real time. Each line names the goroutine and
// the file:line of its wait. It claims no more than the goroutine's stack
// proves, and returns nil when there is nothing to say.
//
// A test rarely calls it: the leak check at the end of the test, a failed
// advance and retrytest's failed checks print it. Call it to see why an
// advance did not wake the code a test expected it to.
func (c *Clock) WaitingElsewhere() []string {
	return c.elsewhere(c.view())
}

func (c *Clock) elsewhere(v settle.View) []string {
	w := settle.ClockWaits{
		Armers:  make(map[string]bool),
		Methods: methodPrefix,
		Self:    reflect.ValueOf(c).Pointer(),
	}
	c.mu.Lock()
	for t := range c.timers.all {
		if fn := t.site.function(); fn != "" {
			w.Armers[fn] = true
		}
	}
	c.mu.Unlock()
	var skip func(settle.Goroutine) bool
	if o := c.settle.oracle; o != nil {
		// Outside a bubble, only goroutines started since the clock was
		// made: the code under test, not the process's long-lived ones.
		skip = func(g settle.Goroutine) bool { return o.Existed(g.ID) }
	}
	lines := v.Elsewhere(w, skip)
	if o := c.settle.oracle; o != nil {
		for _, at := range o.Slept() {
			lines = append(lines, "an advance waited in real time for a goroutine asleep in time.Sleep (at "+at+"): that is the time package's clock, which no advance of this clock moves; give that code this clock")
		}
	}
	return lines
}

// methodPrefix is the prefix of the names of Clock's methods in a goroutine
// dump: "github.com/retrykit/retrykit/fakeclock.(*Clock).".
var methodPrefix = pkgPrefix + "(*Clock)."

// writeElsewhere appends the lines of WaitingElsewhere under a heading.
func writeElsewhere(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		return
	}
	b.WriteString("\ngoroutines of the test waiting on something other than this clock:")
	for _, l := range lines {
		b.WriteString("\n    " + l)
	}
}
