package conformance

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/retrykit/retrykit/internal/circuit"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// The properties of a circuit breaker. Each builds the code anew, drives
// it through calls on the suite's clock and counts, at the transport, the
// requests each call made. A property that needs the breaker open first
// opens it with failing calls and takes the trip to be the last request
// that reached the transport before one was refused; when the breaker
// does not open, it is skipped, naming TripsWhenDeclared, which reports
// it.

// breakerProps are the properties of both breaker shapes, in the order
// they run.
func breakerProps() []property {
	return []property{
		{name: "TripsWhenDeclared", run: tripsWhenDeclared},
		{name: "OpenSendsNothing", run: openSendsNothing},
		{name: "HalfOpenOnTime", run: halfOpenOnTime},
		{name: "ProbeOutcome", run: probeOutcome},
		{name: "CountsReset", skip: skipCountsReset, run: countsReset},
		{name: "WhatCountsAsFailure", run: whatCountsAsFailure},
		{name: "RetriesAndBreaker", skip: skipNoLoop, run: retriesAndBreaker},
	}
}

// tripLimit is how many failing calls trip makes before it gives up on
// the breaker opening.
func (b *breakerRun) tripLimit() int {
	n := b.spec.tripAfter()
	if b.spec.perAttempt() {
		n = (n + b.spec.attempts() - 1) / b.spec.attempts()
	}
	return n + 10
}

// trip makes failing calls until the breaker refuses one — the second
// gap after the first — and returns when it opened: the instant of the
// last request that reached the transport. The call refused is canceled.
func (tr *btrial) trip(gap time.Duration) time.Duration {
	t := tr.t
	t.Helper()
	limit := tr.b.tripLimit()
	for i := range limit {
		if i == 1 && gap > 0 {
			tr.advanceTo(satdur.Add(tr.now(), gap))
		}
		cl := tr.begin("through, until it opens", tr.b.failing())
		tr.settle()
		if !cl.reached() {
			cl.want = "refused: open"
			cl.cancel()
			tr.settle()
			at, ok := tr.lastRequest()
			if !ok {
				t.Skip("the breaker refused the first call, before any failure (TripsWhenDeclared reports it)")
			}
			return at
		}
		cl.finish()
	}
	t.Skip(fmt.Sprintf("the breaker did not open after %s that failed (TripsWhenDeclared reports it)", schedfmt.Count(limit, "call")))
	return 0
}

// expectRefused checks that cl, just begun, made no request at its
// instant and, unless a loop outside the breaker waits, returned at once
// with err; then it cancels cl. why says why it must be refused.
func (cl *bcall) expectRefused(err error, why string) bool {
	tr := cl.tr
	tr.t.Helper()
	tr.settle()
	defer func() {
		cl.cancel()
		tr.settle()
	}()
	if n := len(cl.requests()); n > 0 {
		cl.fail("%s reached the transport at %s, want refused: %s", schedfmt.Count(n, "request"), schedfmt.Duration(cl.at), why)
		return false
	}
	if tr.b.spec.waitsWhenOpen() {
		return true
	}
	done, at, got := cl.rc.State()
	switch {
	case !done:
		cl.fail("the refused call has not returned: a refusal must be at once, want it to fail fast with %v", err)
		return false
	case at != 0:
		cl.fail("the refused call returned after %s: the fast failure takes no time on the clock, want it at once", schedfmt.Duration(at))
		return false
	case !errors.Is(got, err):
		cl.fail("the refused call returned %v, want the breaker's error %v", errOrNil(got), err)
		return false
	}
	return true
}

// expectReached checks that cl made a request; why says why it must.
func (cl *bcall) expectReached(why string) bool {
	cl.tr.t.Helper()
	if cl.reached() {
		return true
	}
	cl.fail("no request reached the transport at %s, want one: %s", schedfmt.Duration(cl.at), why)
	return false
}

// clockHint is what a breaker refusing its probe on the suite's fake clock
// may be missing.
func (tr *btrial) clockHint() string {
	if tr.clk == nil {
		return ""
	}
	return " (a breaker that reads time.Now itself, as sony/gobreaker does, sees no time pass on the suite's clock: run it with RunInBubble)"
}

// runThrough makes the calls of p, which the declared breaker lets
// through without opening, and checks that each reached the transport;
// why says why they must.
func (tr *btrial) runThrough(p pattern, want, why string) bool {
	tr.t.Helper()
	calls, firsts := tr.run(p, false, func(int, int) string { return want })
	for i, cl := range calls {
		if !cl.reached() {
			cl.fail("refused after %d of the attempts %s, want it through: %s", firsts[i]-1, p, why)
			return false
		}
	}
	return true
}

// pattern is the outcomes of a sequence of attempts through the breaker,
// true for a failure.
type pattern []bool

func (p pattern) String() string {
	b := make([]byte, len(p))
	for i, f := range p {
		b[i] = 'S'
		if f {
			b[i] = 'F'
		}
	}
	return string(b)
}

// opensAt is the attempt of p, from 1, on which the declared breaker opens
// from fresh counts; 0 when it does not.
func (s breakerSpec) opensAt(p pattern) int {
	c := circuit.New(s.params, 0)
	for i, f := range p {
		o := circuit.Success
		if f {
			o = circuit.Failure
		}
		if c.Record(0, o) {
			return i + 1
		}
	}
	return 0
}

// shortOfTrip is the attempts from fresh counts that leave the declared
// breaker one failure short of opening: failures one fewer than the
// Threshold, or, for a FailureRate, MinCalls successes and the failures
// one short of the rate (MinCalls failures alone would also tell a
// breaker that keeps no minimum).
func (s breakerSpec) shortOfTrip() pattern {
	var p pattern
	if s.Breaker.FailureRate > 0 {
		p = s.untilOpen(make(pattern, max(s.Breaker.MinCalls, 1)))
	} else {
		p = s.untilOpen(nil)
	}
	return p[:len(p)-1]
}

// untilOpen extends p with failures until the declared breaker opens on
// the last.
func (s breakerSpec) untilOpen(p pattern) pattern {
	for range 10000 {
		if s.opensAt(p) == len(p) && len(p) > 0 {
			return p
		}
		p = append(p, true)
	}
	return p
}

// run makes the calls of p, grouped as the breaker counts them: a call
// per attempt, or, with a loop outside the breaker, a call per run of
// failures up to the loop's attempts (a success ending a call), a call
// with fewer failures canceled after them, but the last when open says
// the breaker opens on it: it runs its course. want says what each call
// expects. It returns the calls, and the attempt of p each began with.
func (tr *btrial) run(p pattern, open bool, want func(first, last int) string) ([]*bcall, []int) {
	tr.t.Helper()
	var calls []*bcall
	var firsts []int
	a := 1
	if tr.b.spec.perAttempt() {
		a = tr.b.spec.attempts()
	}
	for i := 0; i < len(p); {
		var answers []banswer
		j, success := i, false
		for j < len(p) && len(answers) < a {
			if p[j] {
				answers = append(answers, tr.b.failing())
				j++
				continue
			}
			answers = append(answers, bSuccess)
			j, success = j+1, true
			break
		}
		w := want(i+1, j)
		partial := a > 1 && !success && len(answers) < a && !(open && j == len(p))
		if partial {
			w += ", then canceled"
		}
		cl := tr.begin(w, answers...)
		if partial {
			cl.finishAfter(len(answers))
		} else {
			cl.finish()
		}
		calls = append(calls, cl)
		firsts = append(firsts, i+1)
		i = j
	}
	return calls, firsts
}

// reachedAttempts is how many of calls' attempts reached the transport,
// as the breaker counts them: the calls that reached, or, with a loop
// outside the breaker, their requests.
func (tr *btrial) reachedAttempts(calls []*bcall) int {
	n := 0
	for _, cl := range calls {
		switch {
		case tr.b.spec.perAttempt():
			n += len(cl.requests())
		case cl.reached():
			n++
		}
	}
	return n
}

// tripsWhenDeclared needs nothing: from fresh counts, the attempts of a
// pattern the declared breaker opens on the last of; every attempt must
// reach the transport, and the call after must be refused.
func tripsWhenDeclared(t tb, c *config) {
	s := c.brk.spec
	for _, tc := range s.tripCases() {
		t.Run(tc.name, func(t tb) {
			if s.Breaker.Interval > 0 {
				calls := len(tc.p)
				if d := time.Duration(calls) * s.loopMax(); d >= s.Breaker.Interval {
					t.Skip(fmt.Sprintf("its %s may last %s, past the %s Interval: the counts could reset between them", schedfmt.Count(calls, "call"), schedfmt.Duration(d), schedfmt.Duration(s.Breaker.Interval)))
				}
			}
			tr := c.newBreakerTrial(t)
			e := len(tc.p)
			calls, firsts := tr.run(tc.p, true, func(first, last int) string {
				if last == e {
					return "through: it opens"
				}
				return "through"
			})
			for i, cl := range calls {
				if !s.perAttempt() && !cl.reached() {
					cl.fail("refused after %d of the %d attempts %s, want it let through: %s: it opened early", firsts[i]-1, e, tc.p, tc.about)
					return
				}
			}
			if got := tr.reachedAttempts(calls); s.perAttempt() && got != e {
				last := calls[len(calls)-1]
				early := "early"
				if got > e {
					early = "late"
				}
				last.fail("%s of the %d attempts %s reached the transport, want all %d and no more: %s: it opened %s", schedfmt.Count(got, "attempt"), e, tc.p, e, tc.about, early)
				return
			}
			check := tr.begin("refused: open", bSuccess)
			check.expectRefused(s.Err, fmt.Sprintf("%s (%s), and it did not open on the last", tc.about, tc.p))
		})
	}
}

// tripCase is a case of TripsWhenDeclared: a pattern the declared breaker
// opens on the last attempt of.
type tripCase struct {
	name  string
	p     pattern
	about string
}

// tripCases are the patterns that pin the declared breaker's trip from
// both sides.
func (s breakerSpec) tripCases() []tripCase {
	b := s.Breaker
	k := b.Threshold
	switch {
	case b.FailureRate > 0:
		m := max(b.MinCalls, 1)
		rate := strconv.FormatFloat(b.FailureRate*100, 'g', -1, 64) + "%"
		out := []tripCase{{name: "min-calls", p: s.untilOpen(nil), about: fmt.Sprintf("failures alone open it once %s are counted", schedfmt.Count(m, "call"))}}
		prefix := make(pattern, m)
		p := s.untilOpen(prefix)
		fails := len(p) - m
		return append(out, tripCase{name: "rate", p: p, about: fmt.Sprintf("%d failures after %s make %d of %d, at least %s", fails, schedfmt.Count(m, "success"), fails, len(p), rate)})
	case b.OutOf > 0:
		n := b.OutOf
		spaced := min(k-1, n-k) // successes between the failures
		var p pattern
		for i := range k {
			p = append(p, true)
			if i < spaced {
				p = append(p, false)
			}
		}
		out := []tripCase{{name: "ratio", p: p, about: fmt.Sprintf("%d failures of the last %d calls open it, successes between them", k, n)}}
		if k >= 2 {
			var q pattern
			for range k - 1 {
				q = append(q, true)
			}
			for range n - k + 1 {
				q = append(q, false)
			}
			q = s.untilOpen(q)
			out = append(out, tripCase{name: "rolling", p: q, about: fmt.Sprintf("only the last %d calls count: the first failures slide out of them", n)})
		}
		return out
	}
	var p pattern
	for range k {
		p = append(p, true)
	}
	about := fmt.Sprintf("%s open it", schedfmt.Count(k, "consecutive failure"))
	if k == 1 {
		about = "a failure opens it"
	}
	return []tripCase{{name: "consecutive", p: p, about: about}}
}

// openSendsNothing needs the breaker to open: every call while it is open
// must be refused with its error, make no request and take no time on the
// clock, one after another from the trip to the middle of the open
// duration (sequential), and at once (concurrent).
func openSendsNothing(t tb, c *config) {
	s := c.brk.spec
	t.Run("sequential", func(t tb) {
		tr := c.newBreakerTrial(t)
		trip := tr.trip(0)
		h := s.halfOpenAt(trip, s.Breaker.OpenFor)
		why := fmt.Sprintf("the breaker opened at %s and is open until %s", schedfmt.Duration(trip), schedfmt.Duration(h))
		// Up to the middle of the open duration: its end is HalfOpenOnTime's.
		for _, at := range []time.Duration{tr.now(), trip + 1, trip + (h-trip)/4, trip + (h-trip)/2} {
			if at < tr.now() || at >= h {
				continue
			}
			tr.advanceTo(at)
			if !tr.begin("refused: open", bSuccess).expectRefused(s.Err, why) {
				return
			}
		}
	})
	t.Run("concurrent", func(t tb) {
		tr := c.newBreakerTrial(t)
		trip := tr.trip(0)
		h := s.halfOpenAt(trip, s.Breaker.OpenFor)
		if tr.now() >= h {
			t.Skip(fmt.Sprintf("the calls that opened the breaker ran until %s, past its half-open instant %s", schedfmt.Duration(tr.now()), schedfmt.Duration(h)))
		}
		tr.advanceTo(max(tr.now(), trip+(h-trip)/2))
		var calls []*bcall
		for range concurrentCalls {
			calls = append(calls, tr.begin("refused: open", bSuccess))
		}
		why := fmt.Sprintf("%d calls at once while the breaker is open (from %s until %s)", concurrentCalls, schedfmt.Duration(trip), schedfmt.Duration(h))
		for _, cl := range calls {
			if !cl.expectRefused(s.Err, why) {
				return
			}
		}
	})
}

// gap is how long after the first failing call the others come, in
// HalfOpenOnTime: so that an open duration measured from the first
// failure, not the trip, half-opens too early.
func (s breakerSpec) gap() time.Duration {
	g := s.Breaker.OpenFor / 2
	if i := s.Breaker.Interval; i > 0 {
		g = min(g, i/4)
	}
	return g
}

// halfOpenOnTime needs the breaker to open: one nanosecond before the
// declared half-open instant it is still open (before); at it a probe
// reaches the transport (at); and calls made at once at it get the
// declared number of probes through, no more (probes).
func halfOpenOnTime(t tb, c *config) {
	s := c.brk.spec
	open := func(t tb) (*btrial, time.Duration, time.Duration) {
		tr := c.newBreakerTrial(t)
		trip := tr.trip(s.gap())
		return tr, trip, s.halfOpenAt(trip, s.Breaker.OpenFor)
	}
	instant := "open + OpenFor"
	if s.Breaker.HalfOpensAfter {
		instant = "the first instant after open + OpenFor"
	}
	t.Run("before", func(t tb) {
		tr, trip, h := open(t)
		if now := tr.now(); now > h-1 {
			t.Skip(fmt.Sprintf("the calls that opened the breaker ran until %s, past 1ns before the half-open instant %s", schedfmt.Duration(now), schedfmt.Duration(h)))
		}
		tr.advanceTo(h - 1)
		tr.begin("refused: open", bSuccess).expectRefused(s.Err, fmt.Sprintf("1ns before %s, the half-open instant (%s, measured from the trip at %s)", schedfmt.Duration(h), instant, schedfmt.Duration(trip)))
	})
	t.Run("at", func(t tb) {
		tr, trip, h := open(t)
		tr.advanceTo(h)
		cl := tr.begin("through: a probe", bSuccess)
		tr.settle()
		cl.expectReached(fmt.Sprintf("%s is the half-open instant (%s, the trip at %s)%s", schedfmt.Duration(h), instant, schedfmt.Duration(trip), tr.clockHint()))
	})
	t.Run("probes", func(t tb) {
		tr, _, h := open(t)
		tr.advanceTo(h)
		n := s.Breaker.Probes + 2
		var calls []*bcall
		for range n {
			calls = append(calls, tr.begin("a probe, or refused", bHangs))
		}
		tr.settle()
		got := 0
		for _, cl := range calls {
			if cl.reached() {
				got++
			}
		}
		if got != s.Breaker.Probes {
			calls[n-1].fail("%d of %d calls made at once at the half-open instant %s reached the transport, want %s and no more: a half-open breaker lets through its probes, and refuses the rest while they run",
				got, n, schedfmt.Duration(h), schedfmt.Count(s.Breaker.Probes, "probe"))
			return
		}
		if s.waitsWhenOpen() {
			return
		}
		for _, cl := range calls {
			if cl.reached() {
				continue
			}
			done, at, err := cl.rc.State()
			switch {
			case !done || at != 0:
				cl.fail("a call beyond the %s did not fail fast: %s, want refused at once", schedfmt.Count(s.Breaker.Probes, "probe"), cl.rc)
				return
			case !errors.Is(err, s.halfOpenErr()):
				cl.fail("a call beyond the %s returned %v, want the half-open breaker's error %v", schedfmt.Count(s.Breaker.Probes, "probe"), errOrNil(err), s.halfOpenErr())
				return
			}
		}
	})
}

// probeOutcome needs the breaker to open and half-open: the declared
// successful probes close it, its counts fresh (success); the declared
// failed probes open it again for a full open duration, grown as declared
// (failure).
func probeOutcome(t tb, c *config) {
	s := c.brk.spec
	t.Run("success", func(t tb) {
		tr := c.newBreakerTrial(t)
		h := s.halfOpenAt(tr.trip(0), s.Breaker.OpenFor)
		succ := s.Breaker.ProbeSuccesses
		if succ == 0 {
			succ = s.Breaker.Probes
		}
		if tr.probeAt(h, fmt.Sprintf("probe 1 of %d: through", succ), bSuccess) == nil {
			t.Skip("the breaker refused the probe at the half-open instant " + schedfmt.Duration(h) + " (HalfOpenOnTime reports it)")
		}
		for i := 1; i < succ; i++ {
			cl := tr.call(fmt.Sprintf("probe %d of %d: through", i+1, succ), bSuccess)
			if !cl.expectReached(fmt.Sprintf("probe %d of the %d successes that close the breaker", i+1, succ)) {
				return
			}
		}
		// Closed, with fresh counts: the attempts just short of a trip,
		// then a call that must go through.
		p := s.shortOfTrip()
		why := fmt.Sprintf("%s closed the breaker, its counts fresh, and %s do not open it", schedfmt.Count(succ, "successful probe"), p)
		if tr.runThrough(p, "through: closed", why) {
			tr.call("through: closed", bSuccess).expectReached(why)
		}
	})
	t.Run("failure", func(t tb) {
		tr := c.newBreakerTrial(t)
		trip := tr.trip(0)
		d := s.Breaker.OpenFor
		h := s.halfOpenAt(trip, d)
		rounds := 1
		if s.Breaker.OpenGrowth > 1 {
			rounds = 2
		}
		for round := range rounds {
			first := tr.probeAt(h, "probe: through, fails", tr.b.failing())
			if first == nil {
				if round == 0 {
					t.Skip("the breaker refused the probe at the half-open instant " + schedfmt.Duration(h) + " (HalfOpenOnTime reports it)")
				}
				tr.calls[len(tr.calls)-1].fail("the breaker is still open at %s, want a probe through: it opened again for longer than declared", schedfmt.Duration(h))
				return
			}
			first.finish()
			fails := 1
			if s.perAttempt() {
				fails = len(first.requests())
			}
			for fails < max(s.Breaker.ProbeFailures, 1) {
				cl := tr.call("probe: through, fails", tr.b.failing())
				if !cl.expectReached(fmt.Sprintf("a probe of the breaker half-open at %s", schedfmt.Duration(h))) {
					return
				}
				if s.perAttempt() {
					fails += len(cl.requests())
				} else {
					fails++
				}
			}
			reopen, _ := tr.lastRequest()
			next := growOpen(s, d)
			h2 := s.halfOpenAt(reopen, next)
			what := "for a full open duration"
			if next != d {
				what = "for an open duration grown from " + schedfmt.Duration(d)
			}
			why := fmt.Sprintf("the failed probe at %s opened it again %s: open until %s", schedfmt.Duration(reopen), what, schedfmt.Duration(h2))
			if !tr.begin("refused: open again", bSuccess).expectRefused(s.Err, why) {
				return
			}
			tr.advanceTo(h2 - 1)
			if !tr.begin("refused: open again", bSuccess).expectRefused(s.Err, why) {
				return
			}
			if round == rounds-1 && tr.probeAt(h2, "through: a probe", bSuccess) == nil {
				tr.calls[len(tr.calls)-1].fail("the breaker is still open at %s, want a probe through: the failed probe at %s opened it again for %s, not longer", schedfmt.Duration(h2), schedfmt.Duration(reopen), schedfmt.Duration(next))
			}
			d, h = next, h2
		}
	})
}

// probeAt begins a call answered with a at the half-open instant h; if
// the breaker refuses it there, it tries again 1ns later, whose instant is
// HalfOpenOnTime's to judge. It returns the call that reached the
// transport, or nil.
func (tr *btrial) probeAt(h time.Duration, want string, a banswer) *bcall {
	tr.t.Helper()
	for _, at := range []time.Duration{h, h + 1} {
		tr.advanceTo(at)
		cl := tr.begin(want, a)
		tr.settle()
		if cl.reached() {
			return cl
		}
		cl.want = "refused"
		cl.cancel()
		tr.settle()
	}
	return nil
}

// growOpen is the open duration after d, once a failed probe opens the
// breaker again.
func growOpen(s breakerSpec, d time.Duration) time.Duration {
	g := s.Breaker.OpenGrowth
	if g <= 1 {
		return d
	}
	next := time.Duration(float64(d) * g)
	if float64(d)*g >= 1<<63 {
		next = 1<<63 - 1
	}
	if m := s.Breaker.OpenMax; m > 0 {
		next = min(next, m)
	}
	return next
}

// countsReset needs failures one short of a trip: a success between two
// such runs resets consecutive failures (success); failures one Interval
// old no longer count, failures 1ns younger do (interval).
func countsReset(t tb, c *config) {
	s := c.brk.spec
	short := s.tripAfter() - 1
	failures := func(n int) pattern {
		p := make(pattern, n)
		for i := range p {
			p[i] = true
		}
		return p
	}
	t.Run("success", func(t tb) {
		switch {
		case s.Breaker.Threshold == 0 || s.Breaker.OutOf > 0:
			t.Skip("successes reset consecutive failures only: a ratio slides (TripsWhenDeclared/rolling), a rate counts them")
		case short == 0:
			t.Skip("one failure opens the breaker: there is no count to reset")
		}
		tr := c.newBreakerTrial(t)
		p := append(append(failures(short), false), failures(short)...)
		why := fmt.Sprintf("the success in the middle reset the count, so no %s came in a row", schedfmt.Count(s.tripAfter(), "failure"))
		if tr.runThrough(p, "through", why) {
			tr.call("through: closed", bSuccess).expectReached(why)
		}
	})
	t.Run("interval", func(t tb) {
		iv := s.Breaker.Interval
		switch {
		case iv == 0:
			t.Skip("the Breaker declares no Interval")
		case short == 0:
			t.Skip("one failure opens the breaker: there is no count to reset")
		}
		// The breaker sees a failure when the call ends: after the loop's
		// waits, for a breaker outside the loop.
		var lasts time.Duration
		if !s.perAttempt() {
			lasts = s.loopMax()
		}
		for _, side := range []struct {
			at    time.Duration
			opens bool
		}{{iv - 1, true}, {iv + 1, false}} {
			tr := c.newBreakerTrial(t)
			few := fmt.Sprintf("%s do not open the breaker", schedfmt.Count(short, "failure"))
			if !tr.runThrough(failures(short), "through", few) {
				return
			}
			if now := tr.now(); now > side.at-lasts {
				t.Skip(fmt.Sprintf("the first failures took %s, and a failing call lasts %s: they do not fit in the %s Interval", schedfmt.Duration(now), schedfmt.Duration(lasts), schedfmt.Duration(iv)))
			}
			tr.advanceTo(side.at - lasts)
			calls, _ := tr.run(pattern{true}, side.opens, func(int, int) string { return "through" })
			if !calls[0].reached() {
				calls[0].fail("refused at %s, want it through: %s", schedfmt.Duration(calls[0].at), few)
				return
			}
			if side.opens {
				tr.begin("refused: open", bSuccess).expectRefused(s.Err, fmt.Sprintf("the %s at the start and the one ending at %s, 1ns before the %s Interval ends, count together", schedfmt.Count(short, "failure"), schedfmt.Duration(side.at), schedfmt.Duration(iv)))
				continue
			}
			tr.call("through: counts reset", bSuccess).expectReached(fmt.Sprintf("the %s at the start are one %s Interval old at %s: they no longer count", schedfmt.Count(short, "failure"), schedfmt.Duration(iv), schedfmt.Duration(side.at)))
		}
	})
}

func skipCountsReset(c *config) string {
	b := c.brk.spec.Breaker
	if b.Interval == 0 && (b.OutOf > 0 || b.FailureRate > 0) {
		return "the Breaker declares no Interval, and a ratio or a rate is not reset by a success"
	}
	return ""
}

// whatCountsAsFailure needs nothing: after as many calls answered alike as
// open the breaker when they fail, the next call is refused when the
// answer counts as a failure, and goes through when the Spec says the
// breaker ignores it. A case per status the Spec names (a client), or
// the operation's failure and IgnoredErr (an operation); reset, timeout,
// and canceled (CanceledIsFailure).
func whatCountsAsFailure(t tb, c *config) {
	s := c.brk.spec
	type kase struct {
		name     string
		a        banswer
		failure  bool
		cancel   bool
		answered string // how the calls ended: "answered 404 Not Found"
		decl     string // the Spec's word on it
	}
	var cases []kase
	if c.shape == "breaker client" {
		for _, st := range s.FailureStatuses {
			cases = append(cases, kase{strconv.Itoa(st), banswer{kind: bStatus, status: st}, true, false, "answered " + schedfmt.Status(st), "FailureStatuses"})
		}
		for _, st := range s.IgnoredStatuses {
			cases = append(cases, kase{strconv.Itoa(st), banswer{kind: bStatus, status: st}, false, false, "answered " + schedfmt.Status(st), "IgnoredStatuses"})
		}
	} else {
		cases = append(cases, kase{"failure", c.brk.failing(), true, false, "failed with the operation's error", "every error but IgnoredErr"})
		if s.IgnoredErr != nil {
			st := 404
			if len(s.IgnoredStatuses) > 0 {
				st = s.IgnoredStatuses[0]
			}
			cases = append(cases, kase{"ignored", banswer{kind: bStatus, status: st}, false, false, fmt.Sprintf("failed with %q", s.IgnoredErr), "IgnoredErr"})
		}
	}
	cases = append(cases,
		kase{"reset", banswer{kind: bReset}, true, false, "failed with a connection reset", "always a failure"},
		kase{"timeout", banswer{kind: bTimeout}, true, false, "failed with an I/O timeout", "always a failure"},
		kase{"canceled", bHangs, s.CanceledIsFailure, true, "canceled by their caller", "CanceledIsFailure " + strconv.FormatBool(s.CanceledIsFailure)},
	)
	for _, k := range cases {
		t.Run(k.name, func(t tb) {
			tr := c.newBreakerTrial(t)
			// As many calls as open the breaker on failures, and more: how
			// many exactly is TripsWhenDeclared's.
			n := c.brk.tripLimit()
			want := "through"
			if k.failure {
				want = "through, until it opens"
			}
			for range n {
				cl := tr.begin(want, k.a)
				tr.settle()
				if !cl.reached() {
					if k.failure {
						cl.want = "refused: open"
						return
					}
					cl.fail("refused after %s %s: the breaker counted them as failures, want them ignored (%s)", schedfmt.Count(cl.n-1, "call"), k.answered, k.decl)
					return
				}
				if k.cancel {
					cl.cancel()
				}
				cl.finish()
			}
			cl := tr.call(want, bSuccess)
			switch {
			case k.failure && cl.reached():
				cl.fail("the call after %s %s reached the transport: the breaker did not count them as failures, want it open (%s)", schedfmt.Count(n, "call"), k.answered, k.decl)
			case !k.failure && !cl.reached():
				cl.fail("refused after %s %s: the breaker counted them as failures, want them ignored (%s)", schedfmt.Count(n, "call"), k.answered, k.decl)
			}
		})
	}
}

func skipNoLoop(c *config) string {
	if c.brk.spec.Loop == nil {
		return "the Spec declares no retry loop (BreakerSpec.Loop)"
	}
	return ""
}

// retriesAndBreaker needs a Loop: failing calls up to the trip make the
// requests the composition makes — the loop's every attempt per call, a
// failure per call, for a breaker outside the loop; one failure per
// attempt, for a loop outside the breaker (tripping); and a call while the
// breaker is open sends nothing and ends as declared: at once, or after
// the loop's waits, never in a hot loop of fast failures (open).
func retriesAndBreaker(t tb, c *config) {
	s := c.brk.spec
	a := s.attempts()
	t.Run("tripping", func(t tb) {
		// How many failures open the breaker is TripsWhenDeclared's; here,
		// how the calls' requests run up to it: a breaker outside the loop
		// lets a call's whole loop run, a failure for the call, or refuses
		// it; a breaker inside the loop counts its attempts, and cuts a
		// call between two of them.
		tr := c.newBreakerTrial(t)
		cut := false
		for range c.brk.tripLimit() {
			cl := tr.begin("through, until it opens", tr.b.failing())
			cl.finish()
			got := len(cl.requests())
			switch {
			case cut && got > 0:
				cl.fail("%s reached the transport after the breaker cut the call before, want none: it is open", schedfmt.Count(got, "request"))
				return
			case got == 0:
				if !cut {
					cl.want = "refused: open"
				}
				return
			case !s.perAttempt() && got != a:
				cl.fail("the call made %s, want %d or none: the breaker is outside the loop (Loop.Outside false), so it lets the loop's every attempt through, or refuses the call", schedfmt.Count(got, "request"), a)
				return
			case got < a:
				cut = true
			}
		}
		t.Skip(fmt.Sprintf("the breaker did not open after %s that failed (TripsWhenDeclared reports it)", schedfmt.Count(c.brk.tripLimit(), "call")))
	})
	t.Run("open", func(t tb) {
		tr := c.newBreakerTrial(t)
		trip := tr.trip(0)
		cl := tr.begin("refused: open, every attempt", bSuccess)
		tr.settle()
		var lo, hi time.Duration
		if s.waitsWhenOpen() {
			lo, hi = s.loopWaits(a - 1)
		}
		tr.advanceTo(satdur.Add(cl.at, hi))
		done, at, err := cl.rc.State()
		switch {
		case len(cl.requests()) > 0:
			cl.fail("%s reached the transport while the breaker was open (from %s), want none: a loop around an open breaker must not burn its attempts as requests", schedfmt.Count(len(cl.requests()), "request"), schedfmt.Duration(trip))
		case !done:
			cl.fail("the call has not returned %s after it began, want it to %s", schedfmt.Duration(hi), endsWhenOpen(s))
		case hi > 0 && at == 0:
			cl.fail("the call returned at once, want it to %s: the loop retried the breaker's fast failure without waiting, a hot loop", endsWhenOpen(s))
		case at < lo || at > hi:
			cl.fail("the call returned after %s, want it to %s", schedfmt.Duration(at), endsWhenOpen(s))
		case !errors.Is(err, s.Err):
			cl.fail("the call returned %v, want the breaker's error %v", errOrNil(err), s.Err)
		}
	})
}

// endsWhenOpen says how a call the open breaker refuses must end.
func endsWhenOpen(s breakerSpec) string {
	switch {
	case !s.perAttempt():
		return "fail fast: the breaker outside the loop refuses the call before the loop runs"
	case s.Loop.StopsWhenOpen:
		return "stop at once: the loop does not retry the breaker's error (StopsWhenOpen)"
	case !s.waitsWhenOpen():
		return "fail fast: the loop makes one attempt"
	}
	lo, hi := s.loopWaits(s.attempts() - 1)
	w := schedfmt.Duration(hi)
	if lo != hi {
		w = schedfmt.Window(lo, hi)
	}
	return fmt.Sprintf("wait out the loop's %s, %s in all, each refused at once", schedfmt.Count(s.attempts(), "attempt"), w)
}
