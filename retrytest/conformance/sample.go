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

// Sampling, for code that draws its jitter from a source of its own
// (Spec.OwnRandom): the seam's Min and Max sources cannot pin the edges of
// its windows, so the suite reads many of its waits instead.

// sampleWaits is the fewest waits a sample holds; sampleMaxWaits the most
// the suite reads while an eighth of some window is still unseen. A
// window is cut in sampleParts parts, and one whose part no wait reached
// is judged once it holds sampleDecisive waits: a uniform draw misses an
// eighth that many times with a chance of (7/8)^220, about 2·10⁻¹³. So a
// jitter that spans less than the declared window by an eighth of it, at
// either edge or inside, fails: River's ±10% declared as ±14% does (as
// ±12%, a twelfth at each edge, does not).
// capDecisive is the waits at the cap that judge CapReached's top
// quarter: (3/4)^100, about 3·10⁻¹³.
const (
	sampleWaits    = 1000
	sampleMaxWaits = 20000
	sampleParts    = 8
	sampleDecisive = 220
	capDecisive    = 100
)

// sampled is a sample of the waits of calls that always fail: perRetry[k-1]
// holds the waits before retry k.
type sampled struct {
	perRetry [][]time.Duration
	waits    int
	calls    int
}

// sample makes calls that always fail, each checked by check as it ends
// (a failure stops the sampling), until enough(s) or sampleMaxWaits
// waits; at most sampleMaxWaits calls.
func (c *config) sample(t tb, check func(cl *call, ds []time.Duration) bool, enough func(s *sampled) bool) *sampled {
	t.Helper()
	s := &sampled{}
	for s.calls < sampleMaxWaits && s.waits < sampleMaxWaits {
		var cl *call
		var ds []time.Duration
		if c.shape == "policy" {
			ds, _ = c.policyDelays(t, seqrand.Max())
		} else {
			cl = c.alwaysFailing(t, seqrand.Max())
			ds = c.declared(cl.delays())
		}
		s.calls++
		if !check(cl, ds) {
			return s
		}
		if len(ds) == 0 && s.waits == 0 && s.calls >= 3 {
			t.Skip(fmt.Sprintf("%s made no retry, so there is no wait to judge (AttemptCount reports a missing retry)", schedfmt.Count(s.calls, "call")))
		}
		for i, d := range ds {
			for len(s.perRetry) <= i {
				s.perRetry = append(s.perRetry, nil)
			}
			s.perRetry[i] = append(s.perRetry[i], d)
		}
		s.waits += len(ds)
		if s.waits >= sampleWaits && enough(s) {
			break
		}
	}
	return s
}

// decided reports whether the sample settles WaitsInWindows: for every
// window, every eighth reached, or sampleDecisive waits in it, or the
// retry rare in this code: such a window's waits are held to it, but its
// eighths are not judged.
func (c *config) decided(s *sampled) bool {
	for i, ds := range s.perRetry {
		if len(ds) < sampleDecisive && !s.rare(ds) && c.unseenOf(i+1, ds) != "" {
			return false
		}
	}
	return true
}

// rare reports whether the retry whose waits are ds is rare in the
// sample: reached by fewer than one call in twenty, as the late retries
// of a loop that a Budget ends. A retry that every call reaches is never
// rare, however many retries share the sample (River's 24, asynq's 25).
func (s *sampled) rare(ds []time.Duration) bool {
	return len(ds)*20 < s.calls
}

// part returns the part of w (0 to sampleParts-1) that d falls in, and
// false for a window with no span to divide.
func part(w retrytest.Window, d time.Duration) (int, bool) {
	span := w.Max - w.Min
	if span <= 0 {
		return 0, false
	}
	q := int(float64(d-w.Min) / float64(span) * sampleParts)
	return min(max(q, 0), sampleParts-1), true
}

// unseen says which eighths of the windows of the sampled retries no
// wait reached, or "".
func (c *config) unseen(s *sampled) string {
	var miss []string
	for i, ds := range s.perRetry {
		if len(ds) < sampleDecisive && s.rare(ds) {
			continue // too rare a retry to judge its eighths
		}
		if m := c.unseenOf(i+1, ds); m != "" {
			miss = append(miss, m)
		}
	}
	return strings.Join(miss, "; ")
}

// unseenOf says which eighths of retry k's window none of its waits ds
// reached, or "".
func (c *config) unseenOf(k int, ds []time.Duration) string {
	w := c.ladderWindow(k)
	if w.Max <= w.Min || !c.ladder(k).Draw.spread() {
		return "" // no span, or a wait not declared even over it
	}
	var seen [sampleParts]bool
	for _, d := range ds {
		if q, ok := part(w, d); ok {
			seen[q] = true
		}
	}
	var miss []string
	for q, ok := range seen {
		if !ok {
			span := w.Max - w.Min
			lo, hi := w.Min+span*time.Duration(q)/sampleParts, w.Min+span*time.Duration(q+1)/sampleParts
			miss = append(miss, fmt.Sprintf("retry %d never waited in %s, the %s eighth of %s (%s)",
				k, schedfmt.HalfOpen(lo, hi), ordinal(q+1), w, schedfmt.Count(len(ds), "wait")))
		}
	}
	return strings.Join(miss, "; ")
}

// s0 is a call's number in a sample; a policy's runs have none.
func s0(cl *call) int {
	if cl == nil {
		return 0
	}
	return cl.n
}

// ordinal is 1st, 2nd, 3rd, 4th… for n from 1 to 8.
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// sampleWindows is WaitsInWindows for code with a source of its own: one
// case, "sample", of at least sampleWaits waits, each in its window, that
// reach every eighth of every window with a span.
func (c *config) sampleWindows(t tb) {
	t.Run("sample", func(t tb) {
		var bad string
		s := c.sample(t, func(cl *call, ds []time.Duration) bool {
			if err := retrytest.CheckDelaysWithin(retrytest.Waits(ds...), c.windows(len(ds))...); err != nil {
				bad = fmt.Sprintf("call %d of the sample: %v", s0(cl), err)
				return false
			}
			return true
		}, c.decided)
		switch {
		case bad != "":
			t.Errorf("%s", bad)
		case s.waits == 0:
			t.Skip(fmt.Sprintf("%s made no retry, so there is no wait to judge (AttemptCount reports a missing retry)", schedfmt.Count(s.calls, "call")))
		default:
			if miss := c.unseen(s); miss != "" {
				t.Errorf("in %s of %s the waits do not fill their windows: %s: the jitter spans less than the declared window", schedfmt.Count(s.waits, "wait"), schedfmt.Count(s.calls, "call"), miss)
			}
		}
	})
}

// sampleCap is CapReached for code with a source of its own: the waits at
// the retries at the cap must reach the top quarter of the cap's window
// (or the cap itself, when it has no jitter).
func (c *config) sampleCap(t tb) {
	k := c.capRetry()
	w := c.ladderWindow(k)
	top := w.Max - (w.Max-w.Min)/4
	reached := func(s *sampled) bool {
		for i := k - 1; i < len(s.perRetry); i++ {
			for _, d := range s.perRetry[i] {
				if d >= top-c.edgeSlack() {
					return true
				}
			}
		}
		return false
	}
	atCap := func(s *sampled) int {
		n := 0
		for i := k - 1; i < len(s.perRetry); i++ {
			n += len(s.perRetry[i])
		}
		return n
	}
	// A uniform draw misses the top quarter capDecisive times in a row
	// with a chance of (3/4)^100.
	s := c.sample(t, func(*call, []time.Duration) bool { return true }, func(s *sampled) bool { return reached(s) || atCap(s) >= capDecisive })
	switch {
	case len(s.perRetry) < k:
		t.Skip(fmt.Sprintf("no call of %s retried as far as retry %d, the first at the %s cap (AttemptCount reports it)", schedfmt.Count(s.calls, "call"), k, schedfmt.Duration(c.spec.Policy.Cap)))
	case !reached(s):
		longest := time.Duration(0)
		for i := k - 1; i < len(s.perRetry); i++ {
			for _, d := range s.perRetry[i] {
				longest = max(longest, d)
			}
		}
		t.Errorf("in %s the waits from retry %d on, where the ceiling is the %s cap, never reached %s, the top quarter of %s: the longest was %s, so the ceiling is capped below the declared cap (a cap in the wrong unit?)",
			schedfmt.Count(s.waits, "wait"), k, schedfmt.Duration(c.spec.Policy.Cap), schedfmt.Duration(top), w, schedfmt.Duration(longest))
	}
}

// fillsWindow is, for code that draws its own jitter, the sample of one
// case whose Want is spread evenly over a window other than the ladder's
// (a Rule's throttle ladder, jitter added to a hint): one wait cannot tell
// a jitter narrower or wider than declared, so again makes more calls of
// the case, each wait held to w, until every eighth of w is reached, or
// sampleDecisive waits have not reached one. It says what is wrong, or "".
func (c *config) fillsWindow(w Want, first time.Duration, again func() (time.Duration, bool)) string {
	if !c.spec.OwnRandom || !w.Draw.spread() || w.Window.Max <= w.Window.Min || c.isLadderFirst(w) {
		return ""
	}
	var seen [sampleParts]bool
	n := 0
	mark := func(d time.Duration) string {
		if !w.Window.Contains(d) {
			return fmt.Sprintf("wait %d of the sample was %s, outside %s", n+1, schedfmt.Duration(d), w.Window)
		}
		if q, ok := part(w.Window, d); ok {
			seen[q] = true
		}
		n++
		return ""
	}
	all := func() bool { return !slices.Contains(seen[:], false) }
	if bad := mark(first); bad != "" {
		return bad
	}
	for !all() && n < sampleDecisive {
		d, ok := again()
		if !ok {
			return fmt.Sprintf("after %s, one of the sample's calls made no retry", schedfmt.Count(n, "wait"))
		}
		if bad := mark(d); bad != "" {
			return bad
		}
	}
	if all() {
		return ""
	}
	var miss []string
	span := w.Window.Max - w.Window.Min
	for q, ok := range seen {
		if !ok {
			lo, hi := w.Window.Min+span*time.Duration(q)/sampleParts, w.Window.Min+span*time.Duration(q+1)/sampleParts
			miss = append(miss, fmt.Sprintf("%s, the %s eighth", schedfmt.HalfOpen(lo, hi), ordinal(q+1)))
		}
	}
	return fmt.Sprintf("in %s (the code draws its own jitter, so the suite samples it) none fell in %s of %s: the jitter spans less than declared%s",
		schedfmt.Count(n, "wait"), strings.Join(miss, "; "), w.Window, c.byRule())
}
