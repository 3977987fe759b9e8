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

// source is a random source the windows are checked at, with the name of
// its case.
type source struct {
	name string
	src  func() *seqrand.Source
}

// sources are the random sources the windows are checked at: both edges
// and the middle.
var sources = []source{{"min", seqrand.Min}, {"middle", func() *seqrand.Source { return seqrand.Fixed(0.5) }}, {"max", seqrand.Max}}

// edges are the sources the jitter must reach the edges of its windows at.
var edges = []source{sources[0], sources[2]}

// declared cuts ds, the waits of a call, to the retries the Policy
// declares.
func (c *config) declared(ds []time.Duration) []time.Duration {
	if r := c.spec.retries(); r >= 0 && len(ds) > r {
		return ds[:r]
	}
	return ds
}

// windows returns the ladder's windows of the first n retries.
func (c *config) windows(n int) []retrytest.Window {
	ws := make([]retrytest.Window, n)
	for k := range ws {
		ws[k] = c.ladderWindow(k + 1)
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

// firstAttemptImmediate needs the call to make an attempt, at 0s.
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

// waitsInWindows needs, at each source, one retry wait to hold to its
// window; a source at which the code made none is a skipped case.
func waitsInWindows(t tb, c *config) {
	if c.spec.OwnRandom {
		c.sampleWindows(t)
		return
	}
	for _, s := range sources {
		t.Run(s.name, func(t tb) {
			cl := c.alwaysFailing(t, s.src())
			ds := c.declared(cl.delays())
			if len(ds) == 0 {
				cl.skipNoRetry("at the " + s.src().String() + " source")
			}
			if err := retrytest.CheckDelaysWithin(retrytest.Waits(ds...), c.windows(len(ds))...); err != nil {
				t.Errorf("%sat the %s source: %v", diagnosisLine(c.diagnose(ds, s.src())), s.src(), err)
			}
		})
	}
}

// jitterFromSource needs, at the Min and at the Max source, one retry
// wait below the cap: the waits there must reach the bottom (Min) and the
// top (Max) of their windows.
func jitterFromSource(t tb, c *config) {
	for _, s := range edges {
		t.Run(s.name, func(t tb) {
			src := s.src()
			cl := c.alwaysFailing(t, src)
			ds := c.belowCap(c.declared(cl.delays()))
			if len(ds) == 0 {
				cl.skipNoRetry("below the cap at the " + src.String() + " source")
			}
			if wrong := c.edgeMisses(src, ds); wrong != "" {
				all := c.declared(cl.delays())
				t.Errorf("%sat the %s source %s\n%s", diagnosisLine(c.diagnose(all, src)), src, wrong, cl.table())
			}
		})
	}
}

// tops reports whether the wait of retry k drawn at src is the top of its
// window: at the Max source, but for a wait drawn downward (DownJitter),
// at the Min source.
func (c *config) tops(src *seqrand.Source, k int) bool {
	return (src.String() == "Max") != (c.ladder(k).Draw == DrawDownward)
}

// topSource is the source at which the wait of retry k is the top of its
// window.
func (c *config) topSource(k int) *seqrand.Source {
	if c.tops(seqrand.Min(), k) {
		return seqrand.Min()
	}
	return seqrand.Max()
}

// belowCap cuts ds to the waits before the first retry at the cap.
func (c *config) belowCap(ds []time.Duration) []time.Duration {
	if top := c.capRetry(); top > 0 && len(ds) >= top {
		return ds[:top-1]
	}
	return ds
}

// edgeMisses says how ds, the waits at src (Min or Max) before the cap,
// miss the edge of their windows that src must reach; "" when none does.
// A wait beyond the edge says the jitter spans more than the declared
// window; one short of it, that the jitter is not drawn from the seam or
// spans less.
func (c *config) edgeMisses(src *seqrand.Source, ds []time.Duration) string {
	var wrong []string
	beyond, short := false, false
	for i, d := range ds {
		k := i + 1
		if !c.ladder(k).Draw.spread() {
			continue // exact (WaitsInWindows holds it), or no draw declared
		}
		w := c.ladderWindow(k)
		edge, what := w.Min, "bottom"
		out := d < edge-c.edgeSlack()
		in := d > edge+c.edgeSlack()
		if c.tops(src, k) {
			edge, what = w.Max, "top"
			out, in = d > edge+c.edgeSlack(), d < edge-c.edgeSlack()
		}
		if out || in {
			wrong = append(wrong, fmt.Sprintf("retry %d waited %s, want %s, the %s of %s", k, schedfmt.Duration(d), schedfmt.Duration(edge), what, w))
		}
		beyond, short = beyond || out, short || in
	}
	if len(wrong) == 0 {
		return ""
	}
	var why []string
	if short {
		why = append(why, "short of the edge: the jitter is not drawn from Seams.Rand, or spans less than the declared window")
	}
	if beyond {
		why = append(why, "past the edge: the jitter spans more than the declared window")
	}
	return strings.Join(wrong, "; ") + " (" + strings.Join(why, "; ") + ")"
}

// drawsBelowCap reports whether a wait of the ladder below the cap (the
// first, when every one is at it) is drawn from the source.
func (c *config) drawsBelowCap() bool {
	n := c.spec.retries()
	if n < 0 {
		n = 64
	}
	if top := c.capRetry(); top > 1 {
		n = min(n, top-1)
	}
	for k := 1; k <= max(n, 1); k++ {
		if c.ladder(k).Draw.spread() {
			return true
		}
	}
	return false
}

func skipJitterFromSource(c *config) string {
	switch {
	case !c.drawsBelowCap():
		if c.spec.Rule == nil {
			return "the Policy declares no jitter"
		}
		return fmt.Sprintf("the Rule (%s) declares no wait below the cap drawn from the source (DrawUniform or DrawDownward)", c.spec.Rule)
	case c.spec.OwnRandom:
		return "the Spec says the code draws its jitter from a source of its own (OwnRandom), which the Min and Max sources cannot pin: WaitsInWindows/sample holds a sample of its waits to the windows instead"
	}
	if c.capRetry() == 1 {
		return "every retry's ceiling is at the cap (CapReached checks it)"
	}
	return ""
}

// capReached needs the code's waits at the Max source to be its own
// (two calls wait alike), and a wait at the retry whose ceiling is the cap.
func capReached(t tb, c *config) {
	if c.spec.OwnRandom {
		c.sampleCap(t)
		return
	}
	k := c.capRetry()
	top := c.topSource(k)
	tr := c.alwaysFailing(t, top)
	ds := tr.delays()
	if again := c.alwaysFailing(t, top).delays(); !slices.Equal(ds, again) {
		t.Skip(fmt.Sprintf("two calls at the %s source waited differently, so the code draws from a source of its own and the top of its waits cannot be read (JitterFromSource reports it)", top))
	}
	want := c.ladderWindow(k).Max
	if len(ds) < k {
		t.Skip(fmt.Sprintf("the call made %s, so it never waited at retry %d, where the ceiling reaches the %s cap (AttemptCount reports it)", schedfmt.Count(len(ds)+1, "attempt"), k, schedfmt.Duration(c.spec.Policy.Cap)))
	}
	for i := k - 1; i < len(ds); i++ {
		if c.spec.retries() >= 0 && i+1 > c.spec.retries() {
			break
		}
		if ds[i] < want-c.edgeSlack() {
			t.Errorf("%sat the %s source, retry %d waited %s, want %s: the ceiling is capped below the declared %s cap (a cap in the wrong unit?)\n%s",
				diagnosisLine(c.diagnose(c.declared(ds), top)), top, i+1, schedfmt.Duration(ds[i]), schedfmt.Duration(want), schedfmt.Duration(c.spec.Policy.Cap), tr.table())
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
			end = satdur.Add(end, c.ladderWindow(k).Max)
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

// noSpikeAtCap needs waits at the cap from seeded calls; they must spread
// over the capped retry's window.
func noSpikeAtCap(t tb, c *config) {
	k := c.capRetry()
	var samples []capWait
	// Calls until there are spreadRuns waits at the cap: a ladder with
	// several capped retries needs fewer calls.
	for seed := uint64(0); seed < spreadRuns && len(samples) < spreadRuns; seed++ {
		tr := c.alwaysFailing(t, seqrand.Seeded(seed+1))
		ds := tr.delays()
		for i := k - 1; i < len(ds); i++ {
			if c.spec.retries() >= 0 && i+1 > c.spec.retries() {
				break
			}
			samples = append(samples, capWait{i + 1, ds[i]})
		}
	}
	spreadCheck(t, c, samples)
}

// capWait is a wait at the cap, before retry k.
type capWait struct {
	k int
	d time.Duration
}

// spreadCheck checks that samples, the waits at the cap, spread over the
// window of the capped retry without a spike. It needs at least one. A
// wait of a later retry whose window differs (a jitter that grows with
// the retry, StepJitter) is placed where it lies in its own window, scaled
// to the capped retry's, so that the check reads how each wait spreads
// over the window it was drawn from.
func spreadCheck(t tb, c *config, samples []capWait) {
	w := c.ladderWindow(c.capRetry())
	if len(samples) == 0 {
		t.Skip(fmt.Sprintf("no call retried as far as retry %d, the first at the cap, in %d seeded calls (AttemptCount or CapReached reports it)", c.capRetry(), spreadRuns))
	}
	ds := make([]time.Duration, len(samples))
	scaled := false
	for i, s := range samples {
		ds[i] = s.d
		if wk := c.ladderWindow(s.k); wk != w && wk.Max > wk.Min && s.d >= wk.Min && s.d <= wk.Max {
			ds[i] = w.Min + time.Duration(float64(s.d-wk.Min)/float64(wk.Max-wk.Min)*float64(w.Max-w.Min))
			scaled = true
		}
	}
	spec := retrytest.Spread{Range: retrytest.Window{Min: w.Min, Max: w.Max}, Buckets: 10, MaxRatio: 3}
	if err := retrytest.CheckSpread(retrytest.Waits(ds...), spec); err != nil {
		note := ""
		if scaled {
			note = fmt.Sprintf(" (the waits of later retries placed in %s as they lie in their own windows)", w)
		}
		t.Errorf("%d seeded waits at the cap bunch up: the jitter is applied before the cap, or not at all%s\n%v", len(samples), note, err)
	}
}

func skipSpread(c *config) string {
	if why := skipCap(c); why != "" {
		return why
	}
	if w := c.ladder(c.capRetry()); w.Window.Min == w.Window.Max {
		return "the wait at the cap has no jitter to spread"
	} else if !w.Draw.spread() {
		return fmt.Sprintf("the Rule (%s) does not declare the wait at the cap spread evenly (DrawUniform or DrawDownward)", c.spec.rule())
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
			w := c.ladderWindow(k)
			if c.tops(src, k) {
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

// attemptCount needs the call to give up; then it must have made exactly
// Policy.Attempts attempts.
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

// noWaitAfterLastAttempt needs the call to reach the last attempt the
// Policy declares; then it must return when that attempt fails.
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
	if len(at) < n {
		t.Skip(fmt.Sprintf("the call made %d of its %s, so its last attempt was never reached (AttemptCount reports it)", len(at), schedfmt.Count(n, "attempt")))
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

// freshEachCall needs the first call to give up after at least one retry;
// the second must then repeat it.
func freshEachCall(t tb, c *config) {
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 2)
	first := tr.begin([]answer{transient}, nil)
	first.finish()
	first.skipUnreturned()
	if len(first.attempts()) < 2 {
		first.skipNoRetry("in the first call")
	}
	second := tr.begin([]answer{transient}, nil)
	second.finish()
	// The whole timeline: the second call's first attempt too.
	if why := c.timelineWaits(timed(first, second), first.attempts()[0]); why != "" {
		t.Errorf("the second call of the same retrier: %s\nfirst call:\n%s\nsecond call:\n%s", why, first.table(), second.table())
	}
	// The second call must repeat the first; a difference that leaves the
	// windows, or changes the count, is state carried over.
	if why := c.sameWaits(second.delays(), first.delays(), "the first call", c.ownLadder(t)); why != "" {
		t.Errorf("the second call of the same retrier %s: a retrier must start each call afresh\nfirst call:\n%s\nsecond call:\n%s", why, first.table(), second.table())
	}
}

// inWindow reports whether d lies in the window of retry k, or k is past
// the Policy's retries.
func (c *config) inWindow(k int, d time.Duration) bool {
	if n := c.spec.retries(); n >= 0 && k > n {
		return false
	}
	return c.ladderWindow(k).Contains(d)
}
