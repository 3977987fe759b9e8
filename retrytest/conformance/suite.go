package conformance

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// property is one clause of the contract, checked on one shape.
type property struct {
	name string
	// skip says why the shape or the Spec cannot express the property; ""
	// when it runs.
	skip func(c *config) string
	run  func(t tb, c *config)
	// waits marks a property that reads the code's waits off the suite's
	// clock: it skips when WaitsOnTheClock finds the code waiting on
	// another.
	waits bool
}

// An Option changes how a suite runs.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// RunInBubble runs every call of the code under test inside a
// testing/synctest bubble, for code that calls the time package itself:
// Seams.Clock is then the bubble's time behind the clockwork.Clock
// interface, keeping a register of what the code arms on it, so that code
// handed a clock and code that calls the time package wait on one time. A policy's
// decisions and a parser's calls run in a bubble too, so that a policy
// that reads time.Now (River's NextRetry returns an instant) reads the
// bubble's. A bubble needs a *testing.T: only the Test forms take this
// option (they return the Report too); a Check form given it returns an
// error saying so.
func RunInBubble() Option {
	return optionFunc(func(c *config) { c.bubble = true })
}

// Clamps says the Retry-After parser under test clamps the delay it
// returns to [min, max] itself, as retryafter.Limits does: every vector is
// then judged at its delay clamped so, and the Bounds group, whose vectors
// test a clamp, runs. Without it a parser is judged on the delay a value
// asks for, exactly, and Bounds is skipped. Only TestParser and
// CheckParser take it; the other entries refuse it with an error.
func Clamps(min, max time.Duration) Option {
	return optionFunc(func(c *config) { c.clamp = &[2]time.Duration{min, max} })
}

// checkOptions refuses an option the entry cannot honour, naming it and
// the entries that take it: no option is ever silently ignored.
func (c *config) checkOptions() error {
	if c.clamp != nil {
		switch {
		case c.shape != "parser":
			return fmt.Errorf("conformance: Clamps applies to a Retry-After parser (TestParser, CheckParser); the %s entry has no parser to clamp", c.shape)
		case c.clamp[0] < 0 || c.clamp[1] < c.clamp[0]:
			return fmt.Errorf("conformance: Clamps(%s, %s): want 0 <= min <= max", schedfmt.Duration(c.clamp[0]), schedfmt.Duration(c.clamp[1]))
		}
	}
	return nil
}

// config is one run of the suite: the Spec, the code under test and the
// options.
type config struct {
	spec     spec
	shape    string
	bubble   bool
	waivers  []waiver
	warnings []string

	decide    retrytest.DecideFunc
	newLoop   func(Seams) Loop
	newClient func(Seams) Do
	parse     Parser
	// clamp is the bounds a parser applies itself (Clamps); nil for none.
	clamp *[2]time.Duration
	brk   *breakerRun // the breaker shapes

	// bubbleT lets the package's own tests run a Check form in bubbles,
	// and only a Check form of some properties alone.
	bubbleT *testing.T
	only    []string

	probeOnce sync.Once
	probeRes  probeResult // WaitsOnTheClock's finding, made once

	// leaks are goroutines the bubbles of properties but NoLeaks left
	// blocked for ever, which NoLeaks reports.
	leaksMu       sync.Mutex
	leaks         []string
	leaksReported bool // NoLeaks has reported them

	ownLadderOnce sync.Once
	ownLadderW    []retrytest.Window // with OwnRandom, ownLadder's ranges
	ownOnce       sync.Once
	ownRange      retrytest.Window // with OwnRandom, the range of the code's first waits (base.own)

	ladderMu    sync.Mutex
	ladderWants map[int]Want // the rule's answers for the ladder, by retry
}

func newConfig(shape string, s Spec, opts []Option) (*config, error) {
	ns, warnings, err := s.normalize()
	c := &config{spec: ns, shape: shape, warnings: warnings}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	if err == nil {
		err = c.checkRule()
	}
	return c, err
}

// inBubble reports whether the calls of the code run in bubbles.
func (c *config) inBubble() bool { return c.bubble }
