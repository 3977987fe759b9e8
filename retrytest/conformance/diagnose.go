package conformance

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// A diagnosis names the pattern of a ladder that fails its windows as a
// whole, when the whole observed ladder is a simple transformation of the
// declared one: one rung early or late, a thousand times too long or too
// short, capped elsewhere, or without its jitter. It is one line above the
// table, and printed only when exactly one pattern fits every wait: never
// a guess on a partial fit.

// ladderPattern is a transformation of the declared Policy, and how to say it.
type ladderPattern struct {
	name string
	// policy is the declared Policy transformed; ok false when the
	// transformation does not apply to it.
	policy func(p retrytest.Policy) (retrytest.Policy, bool)
	say    func(p, q retrytest.Policy) string
}

var ladderPatterns = []ladderPattern{
	{"late", func(p retrytest.Policy) (retrytest.Policy, bool) {
		if len(p.Ceilings) > 0 {
			p.Ceilings = p.Ceilings[1:]
			return p, len(p.Ceilings) > 0
		}
		p.FirstExponent++
		return p, true
	}, func(p, q retrytest.Policy) string {
		return "every wait is one rung late: retry k waits what the Policy gives retry k+1 (an exponent off by one, or the first attempt counted as a retry?)"
	}},
	{"early", func(p retrytest.Policy) (retrytest.Policy, bool) {
		switch {
		case len(p.Ceilings) > 0:
			return p, false
		case p.FirstExponent > 0:
			p.FirstExponent--
		default:
			g := p.Growth
			if g == 0 {
				g = 2
			}
			if g <= 1 {
				return p, false
			}
			p.First = time.Duration(float64(p.First) / g)
		}
		return p, true
	}, func(p, q retrytest.Policy) string {
		return "every wait is one rung early: retry k waits what the Policy gives retry k-1 (an exponent off by one?)"
	}},
	{"x1000", func(p retrytest.Policy) (retrytest.Policy, bool) { return scalePolicy(p, 1000), true }, func(p, q retrytest.Policy) string {
		return "every wait is a thousand times the declared: a unit error (milliseconds read as seconds?)"
	}},
	{"/1000", func(p retrytest.Policy) (retrytest.Policy, bool) { return scalePolicy(p, 0.001), true }, func(p, q retrytest.Policy) string {
		return "every wait is a thousandth of the declared: a unit error (seconds read as milliseconds?)"
	}},
	{"no-jitter", func(p retrytest.Policy) (retrytest.Policy, bool) {
		if p.Jitter == retrytest.NoJitter {
			return p, false
		}
		p.Jitter, p.JitterFactor, p.JitterAmount, p.JitterScale, p.OpenTop = retrytest.NoJitter, 0, 0, [2]float64{}, false
		return p, true
	}, func(p, q retrytest.Policy) string {
		return "every wait is its ceiling: the jitter is missing (the " + p.Jitter.String() + " jitter the Policy declares is never drawn)"
	}},
}

// capPatterns are the declared Policy with its cap elsewhere: at each
// rung's ceiling, and at the longest wait seen when it is none of those
// (to within slack).
func capPatterns(p retrytest.Policy, ds []time.Duration, slack time.Duration) []ladderPattern {
	if len(p.Ceilings) > 0 {
		return nil
	}
	var caps []time.Duration
	uncapped := p
	uncapped.Cap = 0
	for k := 1; k <= len(ds); k++ {
		caps = append(caps, uncapped.Ceiling(k))
	}
	longest := time.Duration(0)
	for _, d := range ds {
		longest = max(longest, d)
	}
	if !slices.ContainsFunc(caps, func(c time.Duration) bool { return c-slack <= longest && longest <= c+slack }) {
		caps = append(caps, longest)
	}
	var out []ladderPattern
	seen := map[time.Duration]bool{p.Cap: true}
	for _, cp := range caps {
		if cp <= 0 || seen[cp] {
			continue
		}
		seen[cp] = true
		out = append(out, ladderPattern{"cap", func(p retrytest.Policy) (retrytest.Policy, bool) {
			p.Cap = cp
			return p, true
		}, func(p, q retrytest.Policy) string {
			was := "no cap"
			if p.Cap > 0 {
				was = "the declared " + schedfmt.Duration(p.Cap)
			}
			return fmt.Sprintf("every wait is capped at %s, not at %s: the cap is applied elsewhere (to the exponent, or in another unit?)", schedfmt.Duration(q.Cap), was)
		}})
	}
	return out
}

// scalePolicy is p with every duration multiplied by f.
func scalePolicy(p retrytest.Policy, f float64) retrytest.Policy {
	s := func(d time.Duration) time.Duration { return time.Duration(float64(d) * f) }
	p.First, p.Cap, p.JitterAmount, p.Floor = s(p.First), s(p.Cap), s(p.JitterAmount), s(p.Floor)
	cs := make([]time.Duration, len(p.Ceilings))
	for i, c := range p.Ceilings {
		cs[i] = s(c)
	}
	if len(cs) > 0 {
		p.Ceilings = cs
	}
	return p
}

// diagnose returns the one line naming the pattern ds, the waits of a
// call at src, follow, or "": none fits every wait, or more than one
// does, or the ladder is not the Policy's (a Rule states it), or ds fits
// the declared ladder. At the Min and Max sources a wait fits a ladder on
// the edge of its window the source draws (its top at Max, but for a
// ladder drawn downward); at another source, anywhere in it.
func (c *config) diagnose(ds []time.Duration, src *seqrand.Source) string {
	p := c.spec.Policy
	if c.spec.Rule != nil || len(ds) < 2 || p.Validate() != nil {
		return ""
	}
	name := src.String()
	fits := func(q retrytest.Policy) bool {
		if q.Validate() != nil {
			return false
		}
		for i, d := range ds {
			w := q.Window(i + 1)
			lo, hi := w.Min, w.Max
			if name == "Min" || name == "Max" {
				if q.Jitter != retrytest.NoJitter && (name == "Max") != (q.Jitter == retrytest.DownJitter) {
					lo = hi
				} else if q.Jitter != retrytest.NoJitter {
					hi = lo
				}
			}
			if d < lo-c.edgeSlack() || d > hi+c.edgeSlack() {
				return false
			}
		}
		return true
	}
	if fits(p) {
		return ""
	}
	var found []string
	for _, pt := range append(append([]ladderPattern{}, ladderPatterns...), capPatterns(p, ds, c.edgeSlack())...) {
		if q, ok := pt.policy(p); ok && fits(q) {
			found = append(found, pt.say(p, q))
		}
	}
	if len(found) != 1 {
		return "" // none, or several: no guess
	}
	return "diagnosis: " + strings.TrimSpace(found[0])
}

// diagnosisLine is d on a line of its own, or "".
func diagnosisLine(d string) string {
	if d == "" {
		return ""
	}
	return d + "\n"
}
