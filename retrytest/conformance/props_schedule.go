package conformance

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The properties of the schedule a Spec's Policy declares, for a loop and a
// client alike. Each runs calls that always fail, on a fresh fake clock
// (or in a bubble), and reads when each attempt began.

// edgeSlack is how far from the edge of its window a wait drawn at the Min
// or Max source may land: a nanosecond or two of float rounding, and the
// Policy's own Tolerance.
func (c *config) edgeSlack() time.Duration { return 2*time.Nanosecond + c.spec.Policy.Tolerance }

// sources are the random sources the windows are checked at: both edges
// and the middle.
func sources() []*seqrand.Source {
	return []*seqrand.Source{seqrand.Min(), seqrand.Fixed(0.5), seqrand.Max()}
}

// windows returns the windows of the first n retries.
func (c *config) windows(n int) []retrytest.Window {
	ws := make([]retrytest.Window, n)
	for k := range ws {
		ws[k] = c.spec.Policy.Window(k + 1)
	}
	return ws
}

// capRetry is the first retry whose ceiling is the cap, or 0 when the
// Policy has no cap or never reaches it within its retries.
func (c *config) capRetry() int {
	p := c.spec.Policy
	if p.Cap == 0 {
		return 0
	}
	n := c.spec.retries()
	if n < 0 {
		n = 64
	}
	for k := 1; k <= n; k++ {
		if p.Ceiling(k) >= p.Cap || p.CapAfterJitter && p.Window(k).Max == p.Cap {
			return k
		}
	}
	return 0
}

// alwaysFailing runs a call whose every attempt fails, at src, to its end.
func (c *config) alwaysFailing(t tb, src *seqrand.Source) *call {
	t.Helper()
	return c.run(t, src, []answer{transient})
}

func firstAttemptImmediate(t tb, c *config) {
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 1)
	cl := tr.begin([]answer{transient}, nil)
	tr.step(0)
	at := cl.attempts()
	switch {
	case len(at) == 0:
		t.Errorf("no attempt at 0s: the code waits before its first attempt, or never makes one (%s)", cl.rc)
	case at[0] != 0:
		t.Errorf("the first attempt began at %s, want 0s: the code waits before its first attempt", schedfmt.Duration(at[0]))
	}
}

func waitsInWindows(t tb, c *config) {
	for _, src := range sources() {
		tr := c.alwaysFailing(t, src)
		ds := tr.delays()
		n := len(ds)
		if r := c.spec.retries(); r >= 0 {
			n = min(n, r)
		}
		if err := retrytest.CheckDelaysWithin(retrytest.Waits(ds[:n]...), c.windows(n)...); err != nil {
			t.Errorf("at the %s source: %v", src, err)
		}
	}
}

func jitterFromSource(t tb, c *config) {
	for _, src := range []*seqrand.Source{seqrand.Min(), seqrand.Max()} {
		if wrong := c.edgeMisses(src, c.alwaysFailing(t, src).delays()); wrong != "" {
			t.Errorf("at the %s source the waits do not reach the edges of their windows: %s; the jitter is not drawn from Seams.Rand, or spans less than the declared window", src, wrong)
		}
	}
}

// edgeMisses says which of ds, the waits at src (Min or Max), miss the
// edge of their windows that src must reach, before the cap; "" when none
// does.
func (c *config) edgeMisses(src *seqrand.Source, ds []time.Duration) string {
	top := c.capRetry()
	var wrong []string
	for i, d := range ds {
		k := i + 1
		if top > 0 && k >= top || c.spec.retries() >= 0 && k > c.spec.retries() {
			break
		}
		w := c.spec.Policy.Window(k)
		edge, what := w.Min, "bottom"
		if src.String() == "Max" {
			edge, what = w.Max, "top"
		}
		if d < edge-c.edgeSlack() || d > edge+c.edgeSlack() {
			wrong = append(wrong, fmt.Sprintf("retry %d waited %s, want %s, the %s of %s", k, schedfmt.Duration(d), schedfmt.Duration(edge), what, w))
		}
	}
	return strings.Join(wrong, "; ")
}

func skipJitterFromSource(c *config) string {
	if c.spec.Policy.Jitter == retrytest.NoJitter {
		return "the Policy declares no jitter"
	}
	if c.capRetry() == 1 {
		return "every retry's ceiling is at the cap (CapReached checks it)"
	}
	return ""
}

func capReached(t tb, c *config) {
	k := c.capRetry()
	tr := c.alwaysFailing(t, seqrand.Max())
	ds := tr.delays()
	if again := c.alwaysFailing(t, seqrand.Max()).delays(); !slices.Equal(ds, again) {
		t.Skip("two calls at the Max source waited differently, so the code draws from a source of its own and the top of its waits cannot be read (JitterFromSource reports it)")
	}
	want := c.spec.Policy.Window(k).Max
	if len(ds) < k {
		t.Errorf("the code made %s, so it never waited at retry %d, where the ceiling reaches the %s cap", schedfmt.Count(len(ds)+1, "attempt"), k, schedfmt.Duration(c.spec.Policy.Cap))
		return
	}
	for i := k - 1; i < len(ds); i++ {
		if c.spec.retries() >= 0 && i+1 > c.spec.retries() {
			break
		}
		if ds[i] < want-c.edgeSlack() {
			t.Errorf("at the Max source, retry %d waited %s, want %s: the ceiling is capped below the declared %s cap (a cap in the wrong unit?)\n%s",
				i+1, schedfmt.Duration(ds[i]), schedfmt.Duration(want), schedfmt.Duration(c.spec.Policy.Cap), tr.table())
			return
		}
	}
}

func skipCap(c *config) string {
	switch {
	case c.spec.Policy.Cap == 0:
		return "the Policy declares no cap"
	case c.capRetry() == 0:
		return fmt.Sprintf("the ceiling does not reach the %s cap within %s", schedfmt.Duration(c.spec.Policy.Cap), schedfmt.Count(c.spec.retries(), "retry"))
	}
	if b := c.spec.Budget; b > 0 {
		var end time.Duration
		for k := 1; k <= c.capRetry(); k++ {
			end = satdur.Add(end, c.spec.Policy.Window(k).Max)
		}
		if end >= b {
			return fmt.Sprintf("the %s Budget ends the call before the wait of retry %d, the first at the cap, would end (at %s)", schedfmt.Duration(b), c.capRetry(), schedfmt.Duration(end))
		}
	}
	return ""
}

// spreadRuns is how many waits at the cap NoSpikeAtCap reads, and how
// many seeded calls it makes at most to get them.
const spreadRuns = 100

func noSpikeAtCap(t tb, c *config) {
	k := c.capRetry()
	var samples []time.Duration
	// Calls until there are spreadRuns waits at the cap: a ladder with
	// several capped retries needs fewer calls.
	for seed := uint64(0); seed < spreadRuns && len(samples) < spreadRuns; seed++ {
		tr := c.alwaysFailing(t, seqrand.Seeded(seed+1))
		ds := tr.delays()
		for i := k - 1; i < len(ds); i++ {
			if c.spec.retries() >= 0 && i+1 > c.spec.retries() {
				break
			}
			samples = append(samples, ds[i])
		}
	}
	spreadCheck(t, c, samples)
}

// spreadCheck checks that samples, the waits at the cap, spread over the
// window of the capped retry without a spike.
func spreadCheck(t tb, c *config, samples []time.Duration) {
	w := c.spec.Policy.Window(c.capRetry())
	if len(samples) == 0 {
		t.Errorf("no wait reached the cap in %d seeded calls", spreadRuns)
		return
	}
	spec := retrytest.Spread{Range: retrytest.Window{Min: w.Min, Max: w.Max}, Buckets: 10, MaxRatio: 3}
	if err := retrytest.CheckSpread(retrytest.Waits(samples...), spec); err != nil {
		t.Errorf("%d seeded waits at the cap bunch up: the jitter is applied before the cap, or not at all\n%v", len(samples), err)
	}
}

func skipSpread(c *config) string {
	if why := skipCap(c); why != "" {
		return why
	}
	if w := c.spec.Policy.Window(c.capRetry()); w.Min == w.Max {
		return "the wait at the cap has no jitter to spread"
	}
	return ""
}

// ladderSource is the source at which a call that always fails makes all
// its attempts within the Spec's Budget: Max, or Min when the Budget ends
// the ladder at Max; nil when it ends it even at Min.
func (c *config) ladderSource() *seqrand.Source {
	p := c.spec.Policy
	if c.spec.Budget == 0 {
		return seqrand.Max()
	}
	for _, src := range []*seqrand.Source{seqrand.Max(), seqrand.Min()} {
		var end time.Duration
		for k := 1; k < p.Attempts; k++ {
			w := p.Window(k)
			if src.String() == "Max" {
				end = satdur.Add(end, w.Max)
			} else {
				end = satdur.Add(end, w.Min)
			}
		}
		if end < c.spec.Budget {
			return src
		}
	}
	return nil
}

// skipLadder skips a property that needs every attempt when the Budget
// ends the call first even at the shortest waits, and returns the source
// to run it at.
func (c *config) skipLadder(t tb) *seqrand.Source {
	src := c.ladderSource()
	if src == nil {
		t.Skip(fmt.Sprintf("the %s Budget ends the call before its %s, even at the shortest waits (BudgetHonoured checks how)",
			schedfmt.Duration(c.spec.Budget), schedfmt.Count(c.spec.Policy.Attempts, "attempt")))
	}
	return src
}

func attemptCount(t tb, c *config) {
	tr := c.alwaysFailing(t, c.skipLadder(t))
	if tr.notReturned() {
		return
	}
	if err := retrytest.CheckAttempts(tr.schedule(), c.spec.Policy.Attempts); err != nil {
		t.Errorf("%v", err)
	}
}

func skipAttemptCount(c *config) string {
	if c.spec.Policy.Attempts == 0 {
		return "the Policy sets no attempt limit (its Budget stops the loop)"
	}
	return ""
}

func noWaitAfterLastAttempt(t tb, c *config) {
	tr := c.alwaysFailing(t, c.skipLadder(t))
	at := tr.attempts()
	if len(at) == 0 {
		t.Errorf("no attempt made: %s", tr.rc)
		return
	}
	last := at[len(at)-1]
	n := c.spec.Policy.Attempts
	if !tr.rc.Returned() && len(at) != n {
		tr.skipUnreturned()
	}
	if tr.rc.Returned() && len(at) < n && c.spec.Budget > 0 {
		t.Skip(fmt.Sprintf("the %s Budget ended the call after %d of its %s (BudgetHonoured checks how)", schedfmt.Duration(c.spec.Budget), len(at), schedfmt.Count(n, "attempt")))
	}
	switch {
	case !tr.rc.Returned():
		t.Errorf("still waiting %s after its last attempt at %s: a wait began after the last attempt\n%s",
			schedfmt.Duration(tr.rc.At()-last), schedfmt.Duration(last), tr.table())
	case tr.rc.At() > last:
		t.Errorf("returned at %s, %s after its last attempt at %s: it waited after the last attempt before giving up\n%s",
			schedfmt.Duration(tr.rc.At()), schedfmt.Duration(tr.rc.At()-last), schedfmt.Duration(last), tr.table())
	}
}

func freshEachCall(t tb, c *config) {
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 2)
	first := tr.begin([]answer{transient}, nil)
	first.finish()
	first.skipUnreturned()
	second := tr.begin([]answer{transient}, nil)
	second.finish()
	// The second call must repeat the first; a difference that leaves the
	// windows, or changes the count, is state carried over.
	if why := c.sameWaits(second.delays(), first.delays(), "the first call"); why != "" {
		t.Errorf("the second call of the same retrier %s: a retrier must start each call afresh\nfirst call:\n%s\nsecond call:\n%s", why, first.table(), second.table())
	}
}

// inWindow reports whether d lies in the window of retry k, or k is past
// the Policy's retries.
func (c *config) inWindow(k int, d time.Duration) bool {
	if n := c.spec.retries(); n >= 0 && k > n {
		return false
	}
	return c.spec.Policy.Window(k).Contains(d)
}
