package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/goleak"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/leakhint"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The properties of a call: how it stops, and what it leaves behind, for a
// loop and a client alike.

// permanentNotRetried needs one attempt that fails permanently; the call
// must end with it. A client's cases are its Permanent statuses.
func permanentNotRetried(t tb, c *config) {
	check := func(t tb, what string, a answer) {
		cl := c.run(t, seqrand.Max(), []answer{a, success})
		switch at := cl.attempts(); {
		case len(at) != 1:
			t.Errorf("%s: %s, want 1: a permanent failure must not be retried\n%s", what, schedfmt.Count(len(at), "attempt"), cl.table())
		case !cl.rc.Returned() || cl.rc.At() != at[0]:
			t.Errorf("%s: %s, want returned at %s, when the attempt ended: a permanent failure must end the call without a wait\n%s", what, cl.rc, schedfmt.Duration(at[0]), cl.table())
		case c.shape == "loop" && !c.isPermanent(cl.rc.Err()):
			t.Errorf("%s: returned err = %v, want an error wrapping Spec.PermanentErr (%v) or the error it wraps", what, cl.rc.Err(), c.spec.PermanentErr)
		}
	}
	if c.shape == "loop" {
		check(t, "the permanent error", answer{perm: true})
		return
	}
	for _, s := range c.spec.Permanent {
		t.Run(strconv.Itoa(s), func(t tb) { check(t, schedfmt.Status(s), answer{status: s}) })
	}
}

// isPermanent reports whether err, what a loop returned after a permanent
// failure, wraps Spec.PermanentErr, or the error that one wraps: libraries
// unwrap their marker (backoff.Permanent, retry.Unrecoverable) on return.
func (c *config) isPermanent(err error) bool { return isPermanentErr(err, c.spec.PermanentErr) }

// isPermanentErr reports whether err wraps perm, or the error perm wraps.
func isPermanentErr(err, perm error) bool {
	if errors.Is(err, perm) {
		return true
	}
	inner := errors.Unwrap(perm)
	return inner != nil && errors.Is(err, inner)
}

func skipPermanent(c *config) string {
	switch {
	case c.shape == "loop" && c.spec.PermanentErr == nil:
		return "the Spec names no PermanentErr"
	case c.shape == "client" && len(c.spec.Permanent) == 0:
		return "the Spec names no Permanent status"
	case c.shape == "policy" && len(c.spec.Permanent) == 0 && c.spec.PermanentErr == nil:
		return "the Spec names no Permanent status and no PermanentErr"
	}
	return ""
}

// cancelDuringWait needs the code's first wait at the Max source; a cancel
// in its middle must end the call at once.
func cancelDuringWait(t tb, c *config) {
	at, first := c.midFirstWait(t)
	if first < 2*time.Nanosecond {
		t.Skip("the code made no wait after a transient failure at the top of the source, so there is none to cancel (WaitsInWindows and AttemptCount say why)")
	}
	var cl *call
	for try := 1; ; try++ {
		tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 1)
		cl = tr.begin([]answer{transient}, nil)
		tr.step(at)
		if !c.spec.OwnRandom || !cl.rc.Returned() {
			cl.cancel()
			tr.step(0)
			break
		}
		// The code's own draws are not the probe's: this call gave up
		// before the cancel came, so no wait was canceled. Another call
		// draws again.
		if try == ownRandomTries {
			t.Skip(fmt.Sprintf("the code draws its own jitter (OwnRandom), and in %d calls its waits were shorter than the probe's: each gave up before the cancel at %s, so no wait was canceled", ownRandomTries, schedfmt.Duration(at)))
		}
	}
	if !cl.rc.Returned() {
		t.Errorf("canceled at %s, in the middle of the first wait (%s), the call is still running: the cancel did not end its wait\n%s",
			schedfmt.Duration(at), schedfmt.Duration(first), cl.table())
		return
	}
	if err := retrytest.CheckStopped(cl.schedule(), cl.rc, retrytest.Stop{At: at, Err: context.Canceled}); err != nil {
		t.Errorf("canceled at %s, in the middle of the first wait (%s): %v", schedfmt.Duration(at), schedfmt.Duration(first), err)
	}
}

func skipCancel(c *config) string {
	if c.spec.retries() == 0 {
		return "the Policy makes one attempt: there is no wait to cancel"
	}
	if c.ladderWindow(1).Max < 2*time.Nanosecond {
		return "the first wait is 0s even at the top of its window"
	}
	return ""
}

// deadlineCutsWait needs a wait of the code at the Max source; a deadline
// in the middle of its second wait (its first, with one retry) must end
// the call then, or sooner with GivesUpEarly.
func deadlineCutsWait(t tb, c *config) {
	// The deadline falls in the middle of the code's own second wait at the
	// Max source (of the first, with one retry).
	at := c.baseline(t).attempts()
	var d time.Duration
	switch {
	case len(at) >= 3 && at[2] > at[1]:
		d = at[1] + (at[2]-at[1])/2
	case len(at) >= 2 && at[1] > at[0]:
		d = at[0] + (at[1]-at[0])/2
	}
	if d < time.Nanosecond {
		t.Skip("the code made no wait at the top of the source, so there is none to cut (WaitsInWindows and AttemptCount say why)")
	}
	mk := func(ctx context.Context, clk *fakeclock.Clock) (context.Context, context.CancelFunc) {
		if clk == nil {
			return context.WithTimeout(ctx, d)
		}
		return clockctx.WithTimeout(ctx, clk, d)
	}
	var cl *call
	for try := 1; ; try++ {
		tr := c.newTrial(t, seqrand.Max(), []answer{transient}, 1)
		cl = tr.begin([]answer{transient}, mk)
		cl.finish()
		returned, at, err := cl.rc.State()
		if !c.spec.OwnRandom || !returned || at >= d || errors.Is(err, context.DeadlineExceeded) {
			break
		}
		// The code's own draws are not the baseline's: this call's waits
		// were shorter, and it ended before the deadline came, so no wait
		// was cut. Another call draws again.
		if try == ownRandomTries {
			t.Skip(fmt.Sprintf("the code draws its own jitter (OwnRandom), and in %d calls its waits were shorter than the baseline's: each ended before the deadline at %s, so no wait was cut", ownRandomTries, schedfmt.Duration(d)))
		}
	}
	if err := retrytest.CheckStopped(cl.schedule(), cl.rc, retrytest.Stop{At: d, Err: context.DeadlineExceeded, Early: c.spec.GivesUpEarly}); err != nil {
		t.Errorf("under a deadline at %s, in the middle of a wait: %v", schedfmt.Duration(d), err)
	}
}

func skipDeadline(c *config) string {
	if c.spec.retries() == 0 {
		return "the Policy makes one attempt: there is no wait to cut"
	}
	if c.ladderWindow(1).Max < time.Nanosecond && (c.spec.retries() == 1 || c.ladderWindow(2).Max < time.Nanosecond) {
		return "the waits are 0s even at the top of their windows"
	}
	return ""
}

// budgetHonoured needs a Budget the attempts reach; the call must end at
// it, or sooner with GivesUpEarly.
func budgetHonoured(t tb, c *config) {
	cl := c.alwaysFailing(t, seqrand.Max())
	if err := retrytest.CheckStopped(cl.schedule(), cl.rc, retrytest.Stop{At: c.spec.Budget, Early: c.spec.GivesUpEarly}); err != nil {
		t.Errorf("under its own %s budget: %v", schedfmt.Duration(c.spec.Budget), err)
	}
}

func skipBudget(c *config) string {
	if c.spec.Budget == 0 {
		return "the Spec declares no Budget"
	}
	if n := c.spec.Policy.Attempts; n > 0 {
		var end time.Duration
		for k := 1; k < n; k++ {
			end = satdur.Add(end, c.ladderWindow(k).Max)
		}
		if end < c.spec.Budget {
			return fmt.Sprintf("the %s end by %s even at the longest waits, before the %s Budget (AttemptCount checks them)",
				schedfmt.Count(n, "attempt"), schedfmt.Duration(end), schedfmt.Duration(c.spec.Budget))
		}
	}
	return ""
}

// ownRandomTries is how many calls DeadlineCutsWait makes, for code that
// draws its own jitter, until one is still waiting when the deadline
// comes: a call whose waits all fall short of the baseline's is rarer
// than one in fifty with full jitter, so 30 in a row is beyond chance.
const ownRandomTries = 30

// concurrentCalls is how many calls ConcurrentCalls makes at once.
const concurrentCalls = 4

// concurrentCallsProp needs a call made alone to give up after at least
// one retry, and each of the calls made at once to retry too; each must
// then wait as the call made alone did.
func concurrentCallsProp(t tb, c *config) {
	alone := c.baseline(t)
	alone.skipUnreturned()
	if len(alone.attempts()) < 2 {
		alone.skipNoRetry("in the call made alone")
	}
	tr := c.newTrial(t, seqrand.Max(), []answer{transient}, concurrentCalls)
	var calls []*call
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range concurrentCalls {
		wg.Go(func() {
			cl := tr.begin([]answer{transient}, nil)
			mu.Lock()
			calls = append(calls, cl)
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, cl := range calls {
		cl.finish()
	}
	if why := c.timelineWaits(timed(calls...), alone.attempts()[0]); why != "" {
		var tables []string
		for _, cl := range calls {
			tables = append(tables, fmt.Sprintf("call %d:\n%s", cl.n, cl.table()))
		}
		t.Errorf("%d calls made at once: %s\n%s", concurrentCalls, why, strings.Join(tables, "\n"))
	}
	want := alone.delays()
	own := c.ownLadder(t)
	for _, cl := range calls {
		got := cl.delays()
		if !cl.rc.Returned() {
			t.Errorf("call %d of %d made at once has not returned: %s\n%s", cl.n, concurrentCalls, cl.rc, cl.table())
			continue
		}
		if len(got) == 0 {
			t.Errorf("call %d of %d made at once made no retry, the call made alone %s: the calls share state they should not\n%s",
				cl.n, concurrentCalls, schedfmt.Count(len(want), "retry"), cl.table())
			continue
		}
		if why := c.sameWaits(got, want, "the call made alone", own); why != "" {
			t.Errorf("call %d of %d made at once with the same retrier %s: the calls share state they should not\nthe call made at once:\n%s\nthe call made alone:\n%s",
				cl.n, concurrentCalls, why, cl.table(), alone.table())
		}
	}
}

// sameWaits says how got, the waits of a call, differ from want, those
// of the same code's other call at the same source (named other), or "".
// A wait that differs but stays in its window is a draw from outside the
// source, which JitterFromSource reports; so is a different count of
// attempts when only a Budget ends the calls.
//
// With OwnRandom, own is the range of the code's own waits at each retry
// (ownLadder): a wait outside the declared window but inside the range
// the code's own calls made alone reach is WaitsInWindows's finding, not
// state carried over.
func (c *config) sameWaits(got, want []time.Duration, other string, own []retrytest.Window) string {
	if len(got) != len(want) && c.spec.Policy.Attempts > 0 {
		return fmt.Sprintf("made %s, %s %d", schedfmt.Count(len(got)+1, "attempt"), other, len(want)+1)
	}
	for i := range min(len(got), len(want)) {
		if got[i] == want[i] || c.inWindow(i+1, got[i]) || i < len(own) && own[i].Contains(got[i]) {
			continue
		}
		return fmt.Sprintf("waited %s before retry %d, outside %s; %s waited %s", schedfmt.Duration(got[i]), i+1, c.ladderWindow(i+1), other, schedfmt.Duration(want[i]))
	}
	return ""
}

// ownLadder is, for code that draws its own jitter, the range of its own
// waits at each retry over ownSample calls that always fail, each widened
// by its declared window's span; nil otherwise.
func (c *config) ownLadder(t tb) []retrytest.Window {
	t.Helper()
	if !c.spec.OwnRandom {
		return nil
	}
	c.ownLadderOnce.Do(func() {
		var out []retrytest.Window
		for range ownSample {
			for i, d := range c.declared(c.alwaysFailing(t, seqrand.Max()).delays()) {
				if i == len(out) {
					out = append(out, retrytest.Window{Min: d, Max: d})
				}
				out[i].Min, out[i].Max = min(out[i].Min, d), max(out[i].Max, d)
			}
		}
		for i := range out {
			span := c.ladderWindow(i+1).Max - c.ladderWindow(i+1).Min
			out[i] = retrytest.Window{Min: max(0, out[i].Min-span), Max: satdur.Add(out[i].Max, span)}
		}
		c.ownLadderW = out
	})
	return c.ownLadderW
}

// noLeaks needs the code to succeed after a retry (case succeeded), to
// give up (given-up) and to be canceled in the middle of a wait
// (canceled); none may leave a timer of the clock pending or a goroutine
// running. A per-attempt timer left by a successful call is a leak too.
func noLeaks(t tb, c *config) {
	// check reports what the call left: on the clock, what its leak check
	// reports (an After nothing can reach any more is no leak), and the
	// goroutines.
	check := func(t tb, what string, tr *trial, before goleak.Option) {
		if tr.clk != nil {
			tr.clk.VerifyIdle()
		}
		if tr.bclk != nil {
			if left := tr.bclk.leftArmed(); left != "" {
				t.Errorf("%s", left)
			}
		}
		if err := leakhint.Find("after "+what+", goroutines it started are still running", before); err != nil {
			t.Errorf("%v", err)
		}
	}
	t.Run("succeeded", func(t tb) {
		before := goleak.IgnoreCurrent()
		what := "the call succeeded on its second attempt"
		script := []answer{transient, success}
		tr := c.newTrial(prefixed{t, "after " + what + ": "}, seqrand.Max(), script, 1)
		cl := tr.begin(script, nil)
		cl.finish()
		if !cl.rc.Returned() || len(cl.attempts()) < 2 {
			cl.skipNoRetry("before its success")
		}
		check(t, what, tr, before)
	})
	t.Run("given-up", func(t tb) {
		before := goleak.IgnoreCurrent()
		what := "the call gave up"
		tr := c.newTrial(prefixed{t, "after " + what + ": "}, seqrand.Max(), []answer{transient}, 1)
		cl := tr.begin([]answer{transient}, nil)
		cl.finish()
		cl.skipUnreturned()
		check(t, what, tr, before)
	})
	bodies := func(t tb) {
		s := c.transientStatus()
		if s == 0 {
			t.Skip("the suite's transient failure is a connection reset (the Spec names no Retryable status): no response, no body to leave open")
		}
		body := c.bodyFor(s)
		if body == "" {
			body = `{"error":"conformance: transient failure"}`
		}
		what := "the call succeeded on its third attempt"
		script := []answer{{status: s, body: body}, {status: s, body: body}, success}
		tr := c.newTrial(prefixed{t, "after " + what + ": "}, seqrand.Max(), script, 1)
		cl := tr.begin(script, nil)
		cl.finish()
		if !cl.rc.Returned() || len(cl.attempts()) < 2 {
			cl.skipNoRetry("after a response with a body")
		}
		// The suite has closed the body of the response the call returned:
		// any body still open is of a response the code retried.
		if err := tr.tr.CheckBodiesClosed(); err != nil {
			t.Errorf("after %s, the code left the body of a response it retried open (over a real transport that holds its connection, and with http.Client.Timeout a goroutine): %v", what, err)
		}
	}
	if c.shape == "client" {
		t.Run("bodies", bodies)
	}
	if c.inBubble() {
		// Goroutines the bubbles of the other properties' calls left
		// blocked for ever: each property stood on what it observed, and
		// the leak is reported here, with the property whose call left it.
		t.Run("bubbles", func(t tb) {
			c.leaksMu.Lock()
			leaks := slices.Clone(c.leaks)
			c.leaksReported = true
			c.leaksMu.Unlock()
			if len(leaks) > 0 {
				t.Errorf("%s", strings.Join(leaks, "\n"))
			}
		})
		// testing/synctest offers no way to list a bubble's pending timers
		// (Go 1.27 neither), and a leaked ticker wakes no goroutine: what
		// a pass covers in a bubble is goroutines (and bodies), so the
		// timers are a case of their own, skipped, saying so.
		t.Run("timers", func(t tb) {
			t.Skip("a synctest bubble lists no pending timers of the time package: in a bubble NoLeaks sees the timers armed on Seams.Clock, goroutines left running and response bodies left open, not a ticker or timer of the time package left armed")
		})
	}
	t.Run("canceled", func(t tb) {
		mid, first := c.midFirstWait(t)
		if first < 2*time.Nanosecond {
			t.Skip("the code made no wait after a transient failure at the top of the source, so there is none to cancel (WaitsInWindows and AttemptCount say why)")
		}
		before := goleak.IgnoreCurrent()
		what := fmt.Sprintf("the call was canceled in the middle of a wait, at %s", schedfmt.Duration(mid))
		tr := c.newTrial(prefixed{t, "after " + what + ": "}, seqrand.Max(), []answer{transient}, 1)
		cl := tr.begin([]answer{transient}, nil)
		tr.step(mid)
		cl.cancel()
		tr.step(0)
		if !cl.rc.Returned() {
			t.Skip("the canceled call has not returned (CancelDuringWait reports it)")
		}
		check(t, what, tr, before)
	})
}

// prefixed is a t whose failures begin with prefix.
type prefixed struct {
	tb
	prefix string
}

func (p prefixed) Errorf(format string, args ...any) {
	p.tb.Helper()
	p.tb.Errorf("%s%s", p.prefix, fmt.Sprintf(format, args...))
}

func (p prefixed) Fatalf(format string, args ...any) {
	p.tb.Helper()
	p.tb.Fatalf("%s%s", p.prefix, fmt.Sprintf(format, args...))
}

// attemptTimeout needs Spec.AttemptTimeout: the first attempt hangs
// (trial.hangUntil). The code must cut it at the timeout — ending its
// context and waiting for it to return, or, with AbandonsAttempt, leaving
// it — and retry after the wait the rule wants, and nothing of the call
// may be left running once the hung attempt has ended (a goroutine blocked
// sending its result is the classic leak).
func attemptTimeout(t tb, c *config) {
	tmo := c.spec.AttemptTimeout
	before := goleak.IgnoreCurrent()
	script := []answer{{hang: true}, success}
	tr := c.newTrial(t, seqrand.Max(), script, 1)
	tr.hang = make(chan struct{})
	released := false
	release := func() {
		if !released {
			released = true
			close(tr.hang)
		}
	}
	t.Cleanup(release) // before the trial's own cleanups end the call
	cl := tr.begin(script, nil)
	cl.finish()
	at := cl.attempts()
	want := c.want(t, 1, retrytest.Outcome{Err: context.DeadlineExceeded, Now: fakeclock.Epoch}, 0, false)
	w := want.Window
	how := "ending its context (the Spec says the code waits for a cut attempt to return: AbandonsAttempt is false)"
	if c.spec.AbandonsAttempt {
		how = "leaving it, deaf to its context, to end on its own (the Spec says the code abandons a cut attempt: AbandonsAttempt)"
	}
	switch {
	case want.Final && len(at) >= 2:
		t.Errorf("the first attempt timed out after %s and the call retried, want it to end: the Rule (%s) says a timed-out attempt is final\n%s", schedfmt.Duration(tmo), c.spec.rule(), cl.table())
		return
	case want.Final:
		return
	case len(at) < 2 && !cl.rc.Returned():
		t.Errorf("the first attempt hangs past the %s AttemptTimeout and the call still waits for it: the attempt was not cut at the timeout by %s\n%s", schedfmt.Duration(tmo), how, cl.table())
		return
	case len(at) < 2:
		t.Errorf("the first attempt timed out after %s and the call returned (%s), want a retry: a per-attempt timeout is a transient failure\n%s", schedfmt.Duration(tmo), cl.rc, cl.table())
		return
	}
	from, what := tmo, fmt.Sprintf("the %s AttemptTimeout", schedfmt.Duration(tmo))
	if !c.spec.AbandonsAttempt {
		ret := tr.hungReturned.Load()
		if ret == nil || at[1] < ret.Sub(cl.start) {
			state := "has not returned yet"
			if ret != nil {
				state = "returned at " + schedfmt.Duration(ret.Sub(cl.start))
			}
			t.Errorf("the second attempt began at %s, before the first, whose context ended at the %s AttemptTimeout, returned (it %s): the code retried without waiting for the attempt it cut; the Spec says it waits (AbandonsAttempt is false)\n%s",
				schedfmt.Duration(at[1]), schedfmt.Duration(tmo), state, cl.table())
			return
		}
		from, what = ret.Sub(cl.start), fmt.Sprintf("the first attempt's return at %s (its context ended at the %s AttemptTimeout)", schedfmt.Duration(ret.Sub(cl.start)), schedfmt.Duration(tmo))
	}
	if lo, hi := satdur.Add(from, w.Min), satdur.Add(from, w.Max); at[1] < lo-c.edgeSlack() || at[1] > hi+c.edgeSlack() {
		t.Errorf("the second attempt began at %s, want %s: %s plus the wait after a timed-out attempt, %s%s\n%s",
			schedfmt.Duration(at[1]), schedfmt.Window(lo, hi), what, w, c.byRule(), cl.table())
	}
	release()
	tr.step(0)
	if tr.clk != nil {
		tr.clk.VerifyIdle()
	}
	if tr.bclk != nil {
		if left := tr.bclk.leftArmed(); left != "" {
			t.Errorf("after the hung attempt ended: %s", left)
		}
	}
	if err := leakhint.Find("after the hung attempt ended, goroutines of the call are still running", before); err != nil {
		t.Errorf("%v", err)
	}
}

func skipAttemptTimeout(c *config) string {
	switch {
	case c.spec.AttemptTimeout == 0:
		return "the Spec declares no AttemptTimeout"
	case c.spec.retries() == 0:
		return "the Policy makes one attempt: a timed-out attempt has no retry"
	}
	return ""
}
