package conformance

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/retrykit/retrykit/retrytest"
)

// tb is what a property needs of its t: a *testing.T, or the recorder of
// the Check forms.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
	FailNow()
	Skip(args ...any)
}

// property is one clause of the contract, checked on one shape.
type property struct {
	name string
	// skip says why the shape or the Spec cannot express the property; ""
	// when it runs.
	skip func(c *config) string
	run  func(t tb, c *config)
}

// An Option changes how a suite runs.
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Waive accepts a failure of the property named property, printing reason:
// for a gap the team knows of. The property still runs: its failure is
// reported as waived, and a pass fails the suite, saying the waiver is stale
// and can go, so that a fix upstream is noticed the day it lands. Waiving a
// property the shape does not have is an error the suite reports.
func Waive(property, reason string) Option {
	return optionFunc(func(c *config) { c.waivers = append(c.waivers, waiver{property, reason}) })
}

// RunInBubble runs every call of the code under test inside a
// testing/synctest bubble, for code that calls the time package itself:
// Seams.Clock is then nil, and the bubble's clock is fake. Only the Test
// forms can open a bubble.
func RunInBubble() Option {
	return optionFunc(func(c *config) { c.bubble = true })
}

type waiver struct{ property, reason string }

// config is one run of the suite: the Spec, the code under test and the
// options.
type config struct {
	spec    spec
	shape   string
	bubble  bool
	waivers []waiver

	decide    retrytest.DecideFunc
	newLoop   func(Seams) Loop
	newClient func(Seams) Do

	// bubbleT lets the package's own tests run a Check form in bubbles.
	bubbleT *testing.T
}

func newConfig(shape string, s Spec, opts []Option) (*config, error) {
	ns, err := s.normalize()
	c := &config{spec: ns, shape: shape}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c, err
}

// checkWaivers reports a waiver that names no property of props.
func (c *config) checkWaivers(props []property) error {
	for _, w := range c.waivers {
		if !slices.ContainsFunc(props, func(p property) bool { return p.name == w.property }) {
			names := make([]string, len(props))
			for i, p := range props {
				names[i] = p.name
			}
			return fmt.Errorf("conformance: Waive(%q): the %s has no such property, want one of %s", w.property, c.shape, strings.Join(names, ", "))
		}
		if w.reason == "" {
			return fmt.Errorf("conformance: Waive(%q): no reason, want why the code may break it", w.property)
		}
	}
	return nil
}

func (c *config) waived(name string) (string, bool) {
	for _, w := range c.waivers {
		if w.property == name {
			return w.reason, true
		}
	}
	return "", false
}

// runTest runs every property as a subtest of t, named for it, so that -run
// selects properties.
func runTest(t *testing.T, c *config, err error, props []property) {
	t.Helper()
	if err == nil {
		err = c.checkWaivers(props)
	}
	if err != nil {
		t.Fatalf("%v", err)
	}
	for _, p := range props {
		t.Run(p.name, func(t *testing.T) {
			if p.skip != nil {
				if why := p.skip(c); why != "" {
					t.Skip(why)
				}
			}
			if why, ok := c.waived(p.name); ok {
				switch st, msg := c.record(t, p); st {
				case Failed:
					t.Skip("waived: " + why + "\n" + msg)
				case Skipped:
					t.Skip(msg)
				default:
					t.Errorf("waived (%s), but the property holds: remove the Waive", why)
				}
				return
			}
			if c.bubble && c.shape != "policy" {
				synctest.Test(t, func(t *testing.T) { p.run(t, c) })
				return
			}
			p.run(t, c)
		})
	}
}

// record runs p with a recorder for its t, in a bubble of bt when the
// config asks for one, and returns how it ended.
func (c *config) record(bt *testing.T, p property) (Status, string) {
	rec := &checkT{}
	if c.bubble && c.shape != "policy" {
		synctest.Test(bt, func(*testing.T) { rec.run(func() { p.run(rec, c) }) })
	} else {
		rec.run(func() { p.run(rec, c) })
	}
	return rec.result()
}

// runCheck runs every property with a recorder for its t and returns the
// report.
func runCheck(c *config, err error, props []property) (*Report, error) {
	if err == nil {
		err = c.checkWaivers(props)
	}
	if err != nil {
		return nil, err
	}
	r := &Report{Shape: c.shape}
	for _, p := range props {
		res := Result{Property: p.name}
		var why string
		if p.skip != nil {
			why = p.skip(c)
		}
		switch {
		case why != "":
			res.Status, res.Message = Skipped, why
		case c.bubble && c.shape != "policy" && c.bubbleT == nil:
			res.Status, res.Message = Skipped, "a synctest bubble needs a *testing.T: run the Test form"
		default:
			res.Status, res.Message = c.record(c.bubbleT, p)
		}
		if reason, waived := c.waived(p.name); waived {
			switch res.Status {
			case Failed:
				res.Status, res.Message = Waived, reason
			case Passed:
				res.Status, res.Message = Failed, fmt.Sprintf("waived (%s), but the property holds: remove the Waive", reason)
			}
		}
		r.Results = append(r.Results, res)
	}
	return r, nil
}

// checkT is the t of a property run by a Check form: it records what the
// property reports, and FailNow, Fatalf and Skip stop the property as they
// stop a test.
type checkT struct {
	mu       sync.Mutex
	msgs     []string
	failed   bool
	skipped  string
	cleanups []func()
}

func (r *checkT) Helper() {}

func (r *checkT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *checkT) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *checkT) Logf(string, ...any) {}

func (r *checkT) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

func (r *checkT) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *checkT) Skip(args ...any) {
	r.mu.Lock()
	r.skipped = fmt.Sprint(args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// run runs f, then the cleanups, last registered first, each on a
// goroutine of its own, as the testing package does.
func (r *checkT) run(f func()) {
	step := func(fn func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn()
		}()
		<-done
	}
	step(f)
	for {
		r.mu.Lock()
		n := len(r.cleanups)
		if n == 0 {
			r.mu.Unlock()
			return
		}
		fn := r.cleanups[n-1]
		r.cleanups = r.cleanups[:n-1]
		r.mu.Unlock()
		step(fn)
	}
}

func (r *checkT) result() (Status, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.failed:
		return Failed, strings.Join(r.msgs, "\n")
	case r.skipped != "":
		return Skipped, r.skipped
	}
	return Passed, ""
}
