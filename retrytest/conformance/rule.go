package conformance

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// Rule states the wait before any retry, from what the suite knows when it
// asks: which retry it is, and how the attempt before it ended (the
// response's status, header and body, or the error), with the server's
// hint as the suite sent it. The suite asks it about every wait it
// judges, so that two ladders chosen by the cause, jitter added to a
// hint, a fallback per status, a hint clamped around the drawn backoff or
// errors the code never retries are each a few lines of the user's code:
//
//	spec.Rule = conformance.RuleFunc("a 429 without a hint waits 60s, plus up to 1s", func(r conformance.Retry) conformance.Want {
//		if r.Cause.Status == 429 && !r.HintOK {
//			return conformance.Want{Window: retrytest.Window{Min: 60 * time.Second, Max: 61 * time.Second, Open: true}, Draw: conformance.DrawUniform}
//		}
//		return r.Default() // what the Spec's Policy and Hints say
//	})
//
// Without a Rule, the suite asks the one the Spec's named fields make
// (Policy, Hints, Permanent, PermanentErr), which [Retry.Default] returns:
// one path through the suite either way. String names the rule in failure
// messages, so that a failure says whose window it judged against.
type Rule interface {
	Want(r Retry) Want
	String() string
}

// RuleFunc makes a [Rule] of f, printed as name.
func RuleFunc(name string, f func(r Retry) Want) Rule { return ruleFunc{name, f} }

type ruleFunc struct {
	name string
	f    func(Retry) Want
}

func (r ruleFunc) Want(x Retry) Want { return r.f(x) }
func (r ruleFunc) String() string    { return r.name }

// Retry is what the suite knows of a retry when it asks a [Rule] about
// its wait.
type Retry struct {
	// K is the retry: 1 for the wait before the second attempt.
	K int
	// Cause is how the attempt before the wait ended: a status with its
	// header and body, or an error (a connection reset, an I/O timeout,
	// context.DeadlineExceeded for an attempt cut at its AttemptTimeout, a
	// loop's transient error).
	Cause retrytest.Outcome
	// Hint is the wait the server's hint in Cause asks for, as the suite
	// sent it (an HTTP-date counted from the response), and HintOK whether
	// the response carries one the code may read: false for none, and for
	// a value that is malformed, empty, negative or not a number. A hint
	// too large for a Duration is retryafter.Forever.
	Hint   time.Duration
	HintOK bool

	def func(Retry) Want
}

// Default returns what the Spec's named fields say of r: final for a
// Permanent status or PermanentErr; the hint, clamped to Hints.Min and
// Hints.Max (final past Max with Hints.GiveUp), for a status whose hint
// the code reads; otherwise the Policy's window of retry K, drawn as its
// Jitter draws.
func (r Retry) Default() Want {
	if r.def == nil {
		panic("conformance: Retry.Default on a Retry the suite did not make")
	}
	return r.def(r)
}

// Want is what a [Rule] says of the wait before a retry.
type Want struct {
	// Window is where the wait must fall.
	Window retrytest.Window
	// Draw is how the code spreads the wait over Window.
	Draw Draw
	// Final says the code must not retry: the call ends with the attempt,
	// at once, and Window is not read.
	Final bool
}

// String describes the want: "[1s, 2s] uniform", "7s", "final".
func (w Want) String() string {
	if w.Final {
		return "final (no retry)"
	}
	if w.Window.Min == w.Window.Max {
		return schedfmt.Duration(w.Window.Min)
	}
	return w.Window.String() + " " + w.Draw.String()
}

// Draw is how code spreads a wait over its window. The properties that
// read the spread — the edges at the Min and Max sources
// (JitterFromSource), the eighths of a sample (OwnRandom), the spread at
// the cap (NoSpikeAtCap) — run only where it is declared.
type Draw int

// The draws of a [Want].
const (
	// DrawAnywhere says nothing of the spread: the wait is judged only to
	// lie in its window. A hint clamped into a window is such a wait.
	DrawAnywhere Draw = iota
	// DrawUniform spreads the wait evenly over its window from the seam's
	// random source: the Min source gives the bottom, the Max source the
	// top.
	DrawUniform
	// DrawDownward is DrawUniform drawn down from the top: the Min source
	// gives the top (openai-go, stripe-go draw c·(1−f·r)).
	DrawDownward
	// DrawExact is a wait with no spread: the window's one value.
	DrawExact
)

var drawNames = [...]string{"anywhere", "uniform", "downward", "exact"}

// String returns "anywhere", "uniform", "downward" or "exact".
func (d Draw) String() string {
	if d >= 0 && int(d) < len(drawNames) {
		return drawNames[d]
	}
	return fmt.Sprintf("Draw(%d)", int(d))
}

// spread reports whether d spreads a wait evenly over a window.
func (d Draw) spread() bool { return d == DrawUniform || d == DrawDownward }

// fieldsRule is the Rule the Spec's named fields make.
func (s spec) fieldsRule(r Retry) Want {
	o := r.Cause
	if o.Status != 0 && slices.Contains(s.Permanent, o.Status) || o.Status == 0 && s.PermanentErr != nil && isPermanentErr(o.Err, s.PermanentErr) {
		return Want{Final: true}
	}
	if s.Hints != nil && o.Status != 0 && slices.Contains(s.ra.Statuses, o.Status) && r.HintOK {
		h := r.Hint
		switch {
		case h > s.ra.Max && s.ra.GiveUp:
			return Want{Final: true}
		case h > s.ra.Max:
			h = s.ra.Max
		case h == 0 && s.ra.ZeroMeansBackoff:
			return s.ladderWant(r.K)
		}
		h = max(h, s.ra.Min)
		return Want{Window: retrytest.Window{Min: h, Max: h}, Draw: DrawExact}
	}
	return s.ladderWant(r.K)
}

// ladderWant is the Policy's window of retry k, with its draw.
func (s spec) ladderWant(k int) Want {
	w := s.Policy.Window(k)
	d := DrawUniform
	switch {
	case s.Policy.Jitter == retrytest.NoJitter:
		d = DrawExact
	case s.Policy.Jitter == retrytest.DownJitter:
		d = DrawDownward
	}
	return Want{Window: w, Draw: d}
}

// rule is the Rule the suite asks: the Spec's own, or the one its named
// fields make.
func (s spec) rule() Rule {
	if s.Rule != nil {
		return s.Rule
	}
	return RuleFunc("the Spec's Policy and Hints", func(r Retry) Want { return r.Default() })
}

// want asks the rule about retry k after outcome o, whose hint (when it
// carries one the code may read) asks for hint. A rule that panics, or
// answers with a window that is no window, fails t.
func (c *config) want(t tb, k int, o retrytest.Outcome, hint time.Duration, hintOK bool) Want {
	t.Helper()
	w, err := c.ask(k, o, hint, hintOK)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return w
}

// ask asks the rule about retry k after outcome o; an error says how the
// rule failed to answer.
func (c *config) ask(k int, o retrytest.Outcome, hint time.Duration, hintOK bool) (w Want, err error) {
	if o.Header == nil && o.Status != 0 {
		o.Header = http.Header{}
	}
	if o.Now.IsZero() {
		o.Now = fakeclock.Epoch
	}
	r := Retry{K: k, Cause: o, Hint: hint, HintOK: hintOK, def: func(r Retry) Want { return c.spec.fieldsRule(r) }}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("conformance: the Spec's Rule (%s) panicked on retry %d after %s: %v", c.spec.rule(), k, o, p)
		}
	}()
	w = c.spec.rule().Want(r)
	switch {
	case !w.Final && (w.Window.Min < 0 || w.Window.Max < w.Window.Min):
		return w, fmt.Errorf("conformance: the Spec's Rule (%s) answered the window %s for retry %d after %s: want 0 <= Min <= Max", c.spec.rule(), w.Window, k, o)
	case w.Draw < DrawAnywhere || w.Draw > DrawExact:
		return w, fmt.Errorf("conformance: the Spec's Rule (%s) answered Draw %v for retry %d after %s: want one of the Draw constants", c.spec.rule(), w.Draw, k, o)
	}
	return w, nil
}

// checkRule asks the rule, before the run, about every retry of the
// ladder and the first retry after every cause the suite will send, so
// that a rule that cannot answer is an error naming the cause, not a
// failure of whichever property asked first.
func (c *config) checkRule() error {
	if c.spec.Rule == nil || c.shape == "parser" {
		return nil
	}
	n := c.spec.retries()
	if n < 0 {
		n = 64
	}
	for k := 1; k <= n; k++ {
		if _, err := c.ask(k, c.transientCause(), 0, false); err != nil {
			return err
		}
	}
	var contra []string
	for _, o := range c.causes() {
		w, err := c.ask(1, o, 0, false)
		if err != nil {
			return err
		}
		switch {
		case o.Status != 0 && slices.Contains(c.spec.Permanent, o.Status) && !w.Final:
			contra = append(contra, fmt.Sprintf("status %d is Permanent, but the Rule (%s) wants %s after it, not Final", o.Status, c.spec.Rule, w))
		case o.Status != 0 && slices.Contains(c.spec.Retryable, o.Status) && w.Final:
			contra = append(contra, fmt.Sprintf("status %d is Retryable, but the Rule (%s) says it is Final", o.Status, c.spec.Rule))
		}
	}
	if len(contra) > 0 {
		return fmt.Errorf("conformance: the Spec contradicts itself: %s", strings.Join(contra, "; "))
	}
	return nil
}

// ladder is the rule's want for retry k after the suite's transient
// failure, the one every call that always fails meets: the ladder the
// schedule's properties hold the waits to.
func (c *config) ladder(k int) Want {
	c.ladderMu.Lock()
	defer c.ladderMu.Unlock()
	if w, ok := c.ladderWants[k]; ok {
		return w
	}
	// The rule was asked about the ladder before the run (checkRule),
	// so it answers here without failing.
	w, _ := c.ask(k, c.transientCause(), 0, false)
	if c.ladderWants == nil {
		c.ladderWants = map[int]Want{}
	}
	c.ladderWants[k] = w
	return w
}

// ladderWindow is the window of retry k of the ladder.
func (c *config) ladderWindow(k int) retrytest.Window { return c.ladder(k).Window }
