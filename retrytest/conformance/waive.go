package conformance

import "github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"

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
	return optionFunc(func(c *config) { c.waivers = append(c.waivers, waiver{Name: name, Reason: reason}) })
}

type waiver = verdict.Waiver

// checkWaivers reports a waiver that names no property of props, or that
// has no reason. A case it names is checked once the property has run.
func (c *config) checkWaivers(props []property) error {
	names := make([]string, len(props))
	for i, p := range props {
		names[i] = p.name
	}
	return verdict.CheckWaivers("conformance", c.shape, c.waivers, names)
}

// waive applies the waivers to res, the outcome of a property (see
// verdict.Apply).
func (c *config) waive(res Result) Result { return verdict.Apply(c.waivers, res) }

func joinLines(a, b string) string { return verdict.JoinLines(a, b) }
