package conformance

import (
	"fmt"
	"slices"
	"strings"
)

// Waive accepts a known failure, with the team's reason: of the property
// named name ("RetryAfterHTTPDate": every case of it), or of one case
// ("RetryAfterHTTPDate/rfc850": that case only, so that a new failing case
// of the same property still fails the test). The property still runs:
// its failure is reported as waived, and a waiver whose property or case
// holds is stale, which fails the suite, so that a fix upstream is noticed
// the day it lands. Waiving a property the shape does not have, a case
// the property does not have, or giving no reason, is an error the suite
// reports.
func Waive(name, reason string) Option {
	return optionFunc(func(c *config) { c.waivers = append(c.waivers, waiver{name: name, reason: reason}) })
}

type waiver struct{ name, reason string }

// property and kase split the waiver's name at its slash.
func (w waiver) property() string { p, _, _ := strings.Cut(w.name, "/"); return p }
func (w waiver) kase() string     { _, k, _ := strings.Cut(w.name, "/"); return k }

// checkWaivers reports a waiver that names no property of props, or that
// has no reason. A case it names is checked once the property has run.
func (c *config) checkWaivers(props []property) error {
	for _, w := range c.waivers {
		if !slices.ContainsFunc(props, func(p property) bool { return p.name == w.property() }) {
			names := make([]string, len(props))
			for i, p := range props {
				names[i] = p.name
			}
			return fmt.Errorf("conformance: Waive(%q): the %s has no such property, want one of %s", w.name, c.shape, strings.Join(names, ", "))
		}
		if k := w.kase(); strings.Contains(w.name, "/") && (k == "" || k != strings.ToLower(k) || strings.ContainsAny(k, " /")) {
			return fmt.Errorf("conformance: Waive(%q): a case is named by one lowercase word after the property: \"RetryAfterHTTPDate/rfc850\"", w.name)
		}
		if w.reason == "" {
			return fmt.Errorf("conformance: Waive(%q): no reason, want why the code may break it", w.name)
		}
	}
	return nil
}

func (c *config) waiver(name string) (waiver, bool) {
	for _, w := range c.waivers {
		if w.name == name {
			return w, true
		}
	}
	return waiver{}, false
}

// waive applies the waivers to res, the outcome of a property: a failing
// case it waives is Waived, a passing one Stale; the property's own
// waiver covers every failing case no case waiver names, and its own
// failure, and is Stale when it covered nothing and the property passed.
// A case waiver naming a case the property did not run fails the
// property, listing the cases it has.
func (c *config) waive(res Result) Result {
	pw, hasPW := c.waiver(res.Property)
	var covered []string
	for i := range res.Cases {
		cs := &res.Cases[i]
		if w, ok := c.waiver(res.Property + "/" + cs.Name); ok {
			switch cs.Verdict {
			case Failed:
				cs.Verdict, cs.Message = Waived, w.reason+"\n"+cs.Message
			case Passed:
				cs.Verdict, cs.Message = Stale, fmt.Sprintf("waived (%s), but the case holds: remove the Waive", w.reason)
			}
			continue
		}
		if hasPW && cs.Verdict == Failed {
			cs.Verdict, cs.Message = Waived, pw.reason+"\n"+cs.Message
			covered = append(covered, cs.Name)
		}
	}
	for _, w := range c.waivers {
		if w.property() != res.Property || w.kase() == "" || res.own == Skipped {
			continue
		}
		if !slices.ContainsFunc(res.Cases, func(cs Case) bool { return cs.Name == w.kase() }) {
			names := make([]string, len(res.Cases))
			for i, cs := range res.Cases {
				names[i] = cs.Name
			}
			have := "it has no cases"
			if len(names) > 0 {
				have = "its cases are " + strings.Join(names, ", ")
			}
			res.own = Failed
			res.Message = joinLines(res.Message, fmt.Sprintf("Waive(%q): %s has no case %q: %s", w.name, res.Property, w.kase(), have))
		}
	}
	if hasPW {
		switch {
		case res.own == Failed:
			res.own, res.Message = Waived, pw.reason+"\n"+res.Message
		case len(covered) > 0:
			res.Message = fmt.Sprintf("%s (covers %s)", pw.reason, strings.Join(covered, ", "))
		case res.own == Passed && res.aggregate() == Passed:
			res.own, res.Message = Stale, fmt.Sprintf("waived (%s), but the property holds: remove the Waive", pw.reason)
		}
	}
	res.Verdict = res.aggregate()
	return res
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
