package conformance

import (
	"sync"
	"testing"

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
// Seams.Clock is then nil, and the bubble's clock is fake. A bubble needs
// a *testing.T: only the Test forms take this option (they return the
// Report too); a Check form given it returns an error saying so.
func RunInBubble() Option {
	return optionFunc(func(c *config) { c.bubble = true })
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
	brk       *breakerRun // the breaker shapes

	// bubbleT lets the package's own tests run a Check form in bubbles,
	// and only a Check form of some properties alone.
	bubbleT *testing.T
	only    []string

	probeOnce sync.Once
	probeRes  probeResult // WaitsOnTheClock's finding, made once
}

func newConfig(shape string, s Spec, opts []Option) (*config, error) {
	ns, warnings, err := s.normalize()
	c := &config{spec: ns, shape: shape, warnings: warnings}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c, err
}

// inBubble reports whether the calls of the code run in bubbles.
func (c *config) inBubble() bool { return c.bubble && c.shape != "policy" && c.shape != "parser" }
