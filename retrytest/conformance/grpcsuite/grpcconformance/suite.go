package grpcconformance

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
)

// shape is the Report's Shape.
const shape = "gRPC client"

// An Option changes how the suite runs: [Waive].
type Option interface{ apply(*config) }

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// Waive accepts a known failure, with the team's reason: of the property
// named name ("PushbackWaited": every case of it), or of one case
// ("NonRetryableCodes/deadline-exceeded"). The property still runs; its
// failure is reported as waived, and a waiver whose property or case
// holds is stale, which fails the suite. Waiving a property the suite
// does not have, or giving no reason, is an error the suite reports.
func Waive(name, reason string) Option {
	return optionFunc(func(c *config) { c.waivers = append(c.waivers, verdict.Waiver{Name: name, Reason: reason}) })
}

// config is one run of the suite.
type config struct {
	spec    Spec
	newCall func(Seams) Call
	waivers []verdict.Waiver
	guard   *guard.Guard // the guard of the servers, outside the bubbles
	leaks   []string     // the bubbles but NoLeaks' left goroutines blocked
}

// TestClient checks a retrying gRPC client against spec: it runs each
// property as a subtest of t, each of its cases as a subtest of that one,
// every call in a testing/synctest bubble (grpc-go and the interceptors
// read package time themselves), and reports failures, skips and waivers
// through them. newCall makes a client over the seams (a ClientConn, its
// service config or interceptors) and returns its Call. It returns the
// [conformance.Report], and logs a line of every skip and waiver.
func TestClient(t *testing.T, spec Spec, newCall func(Seams) Call, opts ...Option) *conformance.Report {
	t.Helper()
	c, err := newConfig(spec, newCall, opts)
	if err != nil {
		t.Fatalf("%v", err)
		return nil
	}
	r := &conformance.Report{Shape: shape}
	for _, p := range properties {
		t.Run(p.name, func(t *testing.T) {
			t.Helper()
			res := c.runProperty(t, p)
			r.Results = append(r.Results, res)
			verdict.ReportTo(t, res)
		})
	}
	if len(c.leaks) > 0 {
		r.Warnings = append(r.Warnings, c.leaks...)
		for _, l := range c.leaks {
			t.Logf("grpcconformance: %s", l)
		}
	}
	t.Log(verdict.Summary(r))
	return r
}

// CheckClient runs the suite as TestClient does, but reports nothing
// through t, which serves only to open the bubbles (synctest.Test needs
// it): it returns the Report, or the error of a Spec or an option the
// suite cannot run, before it uses t.
func CheckClient(t *testing.T, spec Spec, newCall func(Seams) Call, opts ...Option) (*conformance.Report, error) {
	c, err := newConfig(spec, newCall, opts)
	if err != nil {
		return nil, err
	}
	r := &conformance.Report{Shape: shape}
	for _, p := range properties {
		r.Results = append(r.Results, c.runProperty(t, p))
	}
	r.Warnings = append(r.Warnings, c.leaks...)
	return r, nil
}

func newConfig(spec Spec, newCall func(Seams) Call, opts []Option) (*config, error) {
	ns, err := spec.normalize()
	if err != nil {
		return nil, err
	}
	if newCall == nil {
		return nil, fmt.Errorf("grpcconformance: newCall is nil, want a func(Seams) Call that makes the client under test")
	}
	c := &config{spec: ns, newCall: newCall}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	names := make([]string, len(properties))
	for i, p := range properties {
		names[i] = p.name
	}
	if err := verdict.CheckWaivers("grpcconformance", shape, c.waivers, names); err != nil {
		return nil, err
	}
	return c, nil
}

// runProperty runs p in a bubble of t and returns how it ended, its
// waivers applied. A bubble left with goroutines blocked fails the
// property, naming them.
func (c *config) runProperty(t *testing.T, p property) conformance.Result {
	if p.skip != nil {
		if why := p.skip(c.spec); why != "" {
			return verdict.Apply(c.waivers, verdict.New(p.name, conformance.Skipped, why, nil))
		}
	}
	rec := &verdict.Recorder{}
	c.guard = guard.Start(clockwork.NewRealClock(), 5*time.Second)
	defer c.guard.Stop()
	stuck := ""
	func() {
		defer func() {
			if r := recover(); r != nil {
				msg := fmt.Sprint(r)
				if !strings.Contains(msg, "deadlock") {
					panic(r)
				}
				stuck = "the client left goroutines blocked for ever in the bubble after its calls ended (synctest: " + schedfmt.OneLine(strings.SplitN(msg, "\n", 2)[0]) + ")"
			}
		}()
		synctest.Test(t, func(*testing.T) { rec.Exec(func() { p.run(rec, c) }) })
	}()
	res := rec.Property(p.name)
	if stuck != "" {
		if p.name == "NoLeaks" {
			res.Message = verdict.JoinLines(res.Message, stuck)
			verdict.SetOwn(&res, conformance.Failed)
		} else {
			// The leak is the client's, not the property's: NoLeaks
			// reports it, and the Report's warnings say where it began.
			c.leaks = append(c.leaks, "left by a call of "+p.name+": "+stuck)
		}
	}
	return verdict.Apply(c.waivers, res)
}
