package grpcconformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
)

// shape is the Report's Shape.
const shape = "gRPC client"

// An Option changes how the suite runs.
type Option func(*config)

// Waive accepts a known failure, with the team's reason: of the property
// named name ("PushbackWaited": every case of it), or of one case
// ("NonRetryableCodes/deadline-exceeded"). The property still runs; its
// failure is reported as waived, and a waiver whose property or case
// holds is stale, which fails the suite. Waiving a property the suite
// does not have, or giving no reason, is an error the suite reports.
func Waive(name, reason string) Option {
	return func(c *config) { c.waivers = append(c.waivers, waiver{name, reason}) }
}

type waiver struct{ name, reason string }

// config is one run of the suite.
type config struct {
	spec    Spec
	newCall func(Seams) Call
	waivers []waiver
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
			reportResult(t, res)
		})
	}
	if len(c.leaks) > 0 {
		r.Warnings = append(r.Warnings, c.leaks...)
		for _, l := range c.leaks {
			t.Logf("grpcconformance: %s", l)
		}
	}
	t.Log(summary(r))
	return r
}

// CheckClient runs the suite as TestClient does, but reports nothing
// through t, which serves only to open the bubbles: it returns the Report,
// or the error of a Spec or an option the suite cannot run.
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
			o(c)
		}
	}
	for _, w := range c.waivers {
		prop, kase, hasCase := strings.Cut(w.name, "/")
		if !slices.ContainsFunc(properties, func(p property) bool { return p.name == prop }) {
			names := make([]string, len(properties))
			for i, p := range properties {
				names[i] = p.name
			}
			return nil, fmt.Errorf("grpcconformance: Waive(%q): the suite has no such property, want one of %s", w.name, strings.Join(names, ", "))
		}
		if hasCase && (kase == "" || kase != strings.ToLower(kase) || strings.ContainsAny(kase, " /")) {
			return nil, fmt.Errorf("grpcconformance: Waive(%q): a case is named by one lowercase word after the property: \"NonRetryableCodes/internal\"", w.name)
		}
		if w.reason == "" {
			return nil, fmt.Errorf("grpcconformance: Waive(%q): no reason, want why the client may break it", w.name)
		}
	}
	return c, nil
}

// runProperty runs p in a bubble of t and returns how it ended, its
// waivers applied. A bubble left with goroutines blocked fails the
// property, naming them.
func (c *config) runProperty(t *testing.T, p property) conformance.Result {
	if p.skip != nil {
		if why := p.skip(c.spec); why != "" {
			return c.waive(conformance.Result{Property: p.name, Verdict: conformance.Skipped, Message: why}, conformance.Skipped)
		}
	}
	rec := &recorder{}
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
				stuck = "the client left goroutines blocked for ever in the bubble after its calls ended (synctest: " + schedfmt.OneLine(firstLine(msg)) + ")"
			}
		}()
		synctest.Test(t, func(*testing.T) { rec.run(func() { p.run(rec, c) }) })
	}()
	own, msg := rec.result()
	if stuck != "" {
		if p.name == "NoLeaks" {
			own, msg = conformance.Failed, joinLines(msg, stuck)
		} else {
			// The leak is the client's, not the property's: NoLeaks
			// reports it, and the Report's warnings say where it began.
			c.leaks = append(c.leaks, "left by a call of "+p.name+": "+stuck)
		}
	}
	res := conformance.Result{Property: p.name, Message: msg, Cases: rec.cases}
	res.Verdict = aggregate(own, res.Cases)
	return c.waive(res, own)
}

// aggregate is a property's verdict from its own outcome and its cases:
// failing first, then waived, then passed, then skipped.
func aggregate(own conformance.Verdict, cases []conformance.Case) conformance.Verdict {
	all := []conformance.Verdict{own}
	for _, cs := range cases {
		all = append(all, cs.Verdict)
	}
	switch {
	case slices.Contains(all, conformance.Failed):
		return conformance.Failed
	case slices.Contains(all, conformance.Stale):
		return conformance.Stale
	case own == conformance.Skipped:
		return conformance.Skipped
	case slices.Contains(all, conformance.Waived):
		return conformance.Waived
	case len(cases) == 0:
		return own
	case slices.ContainsFunc(cases, func(cs conformance.Case) bool { return cs.Verdict == conformance.Passed }):
		return conformance.Passed
	}
	return conformance.Skipped
}

func (c *config) waiver(name string) (waiver, bool) {
	for _, w := range c.waivers {
		if w.name == name {
			return w, true
		}
	}
	return waiver{}, false
}

// waive applies the waivers to res, whose own outcome (outside its
// cases) is own: a failing case or property they name is Waived, a
// passing one Stale; a case waiver naming no case of a property that ran
// fails it.
func (c *config) waive(res conformance.Result, own conformance.Verdict) conformance.Result {
	pw, hasPW := c.waiver(res.Property)
	covered := false
	for i := range res.Cases {
		cs := &res.Cases[i]
		w, ok := c.waiver(res.Property + "/" + cs.Name)
		switch {
		case ok && cs.Verdict == conformance.Failed:
			cs.Verdict, cs.Message = conformance.Waived, w.reason+"\n"+cs.Message
		case ok && cs.Verdict == conformance.Passed:
			cs.Verdict, cs.Message = conformance.Stale, fmt.Sprintf("waived (%s), but the case holds: remove the Waive", w.reason)
		case !ok && hasPW && cs.Verdict == conformance.Failed:
			cs.Verdict, cs.Message = conformance.Waived, pw.reason+"\n"+cs.Message
			covered = true
		}
	}
	for _, w := range c.waivers {
		prop, kase, _ := strings.Cut(w.name, "/")
		if prop != res.Property || kase == "" || own == conformance.Skipped {
			continue
		}
		if !slices.ContainsFunc(res.Cases, func(cs conformance.Case) bool { return cs.Name == kase }) {
			var names []string
			for _, cs := range res.Cases {
				names = append(names, cs.Name)
			}
			own, res.Message = conformance.Failed, joinLines(res.Message, fmt.Sprintf("Waive(%q): %s has no case %q: its cases are %s", w.name, res.Property, kase, strings.Join(names, ", ")))
		}
	}
	if hasPW {
		switch {
		case own == conformance.Failed:
			own, res.Message = conformance.Waived, joinLines(pw.reason, res.Message)
		case covered:
			// The cases' messages give the reason.
		case own == conformance.Passed && aggregate(own, res.Cases) == conformance.Passed:
			own, res.Message = conformance.Stale, fmt.Sprintf("waived (%s), but the property holds: remove the Waive", pw.reason)
		}
	}
	res.Verdict = aggregate(own, res.Cases)
	return res
}

// reportResult reports res through t, the property's subtest, and a
// subtest of t per case.
func reportResult(t *testing.T, res conformance.Result) {
	t.Helper()
	for _, cs := range res.Cases {
		t.Run(cs.Name, func(t *testing.T) {
			t.Helper()
			switch cs.Verdict {
			case conformance.Failed, conformance.Stale:
				t.Errorf("%s", cs.Message)
			case conformance.Waived:
				t.Skip("waived: " + cs.Message)
			case conformance.Skipped:
				t.Skip(cs.Message)
			}
		})
	}
	switch {
	case t.Failed():
	case res.Verdict == conformance.Failed || res.Verdict == conformance.Stale:
		t.Errorf("%s", res.Message)
	case res.Verdict == conformance.Skipped:
		t.Skip(res.Message)
	case res.Verdict == conformance.Waived && len(res.Cases) == 0:
		t.Skip("waived: " + res.Message)
	}
}

// summary is the line TestClient logs: the counts, and every skip and
// waiver with its reason.
func summary(r *conformance.Report) string {
	counts := map[conformance.Verdict]int{}
	var notes []string
	for _, res := range r.Results {
		counts[res.Verdict]++
		if (res.Verdict == conformance.Skipped || res.Verdict == conformance.Waived) && res.Message != "" {
			notes = append(notes, res.Property+" "+res.Verdict.String()+": "+schedfmt.OneLine(firstLine(res.Message)))
			if res.Verdict == conformance.Skipped {
				continue
			}
		}
		for _, cs := range res.Cases {
			if cs.Verdict == conformance.Skipped || cs.Verdict == conformance.Waived {
				notes = append(notes, res.Property+"/"+cs.Name+" "+cs.Verdict.String()+": "+schedfmt.OneLine(firstLine(cs.Message)))
			}
		}
	}
	var parts []string
	for _, v := range []conformance.Verdict{conformance.Passed, conformance.Failed, conformance.Stale, conformance.Waived, conformance.Skipped} {
		if n := counts[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	s := "conformance of the " + shape + ": " + strings.Join(parts, ", ")
	if len(notes) > 0 {
		s += " — " + strings.Join(notes, "; ")
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
