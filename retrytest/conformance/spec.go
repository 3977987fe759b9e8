package conformance

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// Spec is the contract the code under test claims: its backoff, and how it
// treats the server's hints, permanent failures and a retried side
// effect. The zero value of each field means what a user expects; a Spec
// that contradicts itself is an error the suite reports before it runs.
type Spec struct {
	// Policy is the declared backoff: first delay, growth, cap, jitter,
	// cap before or after the jitter, first exponent, open top, and
	// attempts in all (the first call included). Without a Rule, the
	// suite holds every wait that no hint decides to Policy.Window of its
	// retry; its Attempts and Cap are the ladder's, with a Rule too.
	Policy retrytest.Policy
	// Rule, when set, states the window of every retry from its cause:
	// the suite asks it about every wait it judges, instead of asking the
	// Policy and the Hints (which it may still ask: Retry.Default). See
	// [Rule]; nil means the named fields alone.
	Rule Rule
	// Budget is the overall time the code allows a call, when it enforces
	// one itself (a MaxElapsedTime); 0 means none. A Spec needs
	// Policy.Attempts or a Budget, so that the loop stops.
	Budget time.Duration
	// AttemptTimeout is how long the code gives each attempt, when it cuts
	// one that takes longer and retries; 0 means it does not. The suite
	// hangs the first attempt and wants the next one after the timeout
	// (and the attempt's end, see AbandonsAttempt) and the wait the Rule
	// wants after context.DeadlineExceeded (by default the backoff's), and
	// nothing of the call left running at its end.
	AttemptTimeout time.Duration
	// AbandonsAttempt says how the code cuts an attempt at its
	// AttemptTimeout. false: it ends the attempt's context and waits for
	// the attempt to return, as a loop that calls op(ctx) with a timeout
	// context and a client on http.Client do; the suite's hung attempt
	// then honours its context, returning a while after it ends (longer
	// than the backoff, so that a loop that does not wait for it is seen),
	// and the next attempt must begin after that. true: it stops waiting
	// and retries without the attempt, which is left to end on its own;
	// the suite's hung attempt is then deaf to its context until the
	// suite lets it go, and it must not be left blocked after that.
	AbandonsAttempt bool
	// OwnRandom says the code draws its jitter from a source of its own
	// — the math/rand global, crypto/rand, a private *rand.Rand — that
	// Seams.Rand does not reach, as most SDK clients do. The Min and Max
	// sources then cannot pin the edges of its windows: JitterFromSource
	// is skipped, saying so, and WaitsInWindows and CapReached read a
	// sample of at least 1,000 waits instead, each in its window, every
	// eighth of each window that has a span reached: a jitter narrower
	// than declared by an eighth of its window fails.
	OwnRandom bool
	// GivesUpEarly says the code gives up before a deadline or its Budget
	// when its next wait would end past it (cenkalti/backoff does),
	// instead of waiting until the deadline interrupts the wait.
	GivesUpEarly bool
	// RetryAfter says how the code honours a server's Retry-After; nil
	// means it does not, and the properties about it are skipped.
	Hints *Hints
	// Retryable are the statuses a client must retry; nil means
	// DefaultRetryable. Permanent are those it must not; nil means
	// DefaultPermanent but the statuses Retryable names. An empty list
	// names none. [Statuses] states a class with exceptions: every 5xx
	// but 501 is Statuses(5, 501).
	Retryable, Permanent []int
	// PermanentErr is an error that a loop or a policy must not retry,
	// such as a value wrapped by the library's Permanent; a loop must
	// return it, or the error it wraps. nil skips that property for loops
	// and policies (a client's permanent failures are its Permanent
	// statuses).
	PermanentErr error
	// Bodies are the bodies the server sends with its statuses, for code
	// that reads them: Bodies[503] with a 503, Bodies[0] with every
	// status not listed; nil sends none. Give the vendor's real error
	// document, so that the suite sees what the code sees in production.
	Bodies map[int]string
	// Signals are responses that tell the code, in their body or a
	// header and not by their status alone, whether to retry: a JSON
	// error with a retry flag, an x-should-retry header. Each is a case
	// of RetrySignals.
	Signals []Signal
	// IdempotencyKey is the header a client must send with the same value
	// on every attempt of a call, and a different one on the next call;
	// "" means the client sends none, and the property is skipped.
	IdempotencyKey string
	// RateLimit, when set, is a client-side rate limit on calls, shared
	// by them, that a call's first attempt waits on (see [RateLimit]):
	// FreshEachCall and ConcurrentCalls hold the calls' first attempts to
	// it. nil says the code makes a call's first attempt at once: a wait
	// before it is a failure.
	RateLimit *RateLimit
	// SharedState says what the calls of one client (or loop) share that
	// changes what a later call does — "a retry quota of 500 tokens", "a
	// token bucket of 4 requests a second" — so that FreshEachCall and
	// ConcurrentCalls, which hold a call to what the same code does alone,
	// skip, naming it. "" says the calls share nothing.
	SharedState string
}

// Signal is a response whose body or header says whether to retry it,
// and what the code must do with it: a case of RetrySignals.
type Signal struct {
	// Name is the case's name, one lowercase word: "lock-timeout".
	Name string
	// Status, Header and Body are the response.
	Status int
	Header http.Header
	Body   string
	// Retry says the code retries it, after its backoff; false, that the
	// call ends with it.
	Retry bool
	// StatusDecides says the code treats the status so whatever the body
	// or header say. Without it the case also sends a control — the same
	// status, with Bodies' body for it and without Header — and passes
	// only when the code treats the two differently, so that a signal the
	// code ignores is never a pass.
	StatusDecides bool
}

// DefaultRetryable are the statuses a Spec with no Retryable list says a
// client retries: a request timeout, too many requests, and the server
// errors that say "try again" (seed 000's table of transient failures).
var DefaultRetryable = []int{408, 429, 500, 502, 503, 504}

// DefaultPermanent are the statuses a Spec with no Permanent list says a
// client must not retry: the request is wrong, or not allowed, or the
// server cannot do it at all. Those the Spec declares Retryable are left
// out: a client that retries 501 declares Retryable alone.
var DefaultPermanent = []int{400, 401, 403, 404, 501}

// Statuses returns the statuses net/http names in a class — 4 for 4xx, 5
// for 5xx — but those in except, for a Spec's Retryable and Permanent:
// "every 4xx but 408 and 429 is permanent" is Statuses(4, 408, 429). The
// suite sends each: a client that reads only the class (status/100)
// meets them all. A class outside 1-5, or an exception outside it, panics.
func Statuses(class int, except ...int) []int {
	if class < 1 || class > 5 {
		panic(fmt.Sprintf("conformance: Statuses(%d): want a class from 1 (1xx) to 5 (5xx)", class))
	}
	for _, e := range except {
		if e/100 != class {
			panic(fmt.Sprintf("conformance: Statuses(%d, …%d…): %d is not a %dxx status", class, e, e, class))
		}
	}
	var out []int
	for s := class * 100; s < class*100+100; s++ {
		if http.StatusText(s) != "" && !slices.Contains(except, s) {
			out = append(out, s)
		}
	}
	return out
}

// Hints says how the code honours a server's wait hints (Retry-After).
type Hints struct {
	// Statuses are the statuses whose Retry-After the code reads; nil
	// means 429 and 503, those of them that are Retryable.
	Statuses []int
	// Min is the floor: a shorter hint, 0 included, is raised to it.
	Min time.Duration
	// Max is the ceiling: a longer hint is cut to it, or, with GiveUp, the
	// code gives up. 0 means retryafter.DefaultMax, five minutes;
	// retryafter.Forever says the code has no ceiling (a huge hint must
	// then make a huge wait, never wrap to a short one).
	Max time.Duration
	// GiveUp makes a hint above Max end the call instead of being cut.
	GiveUp bool
	// Fields are the fields the code reads a wait from, in its order of
	// precedence: {"Retry-After-Ms", "Retry-After"} for a client that
	// reads the first it finds. nil means {"Retry-After"}. The suite
	// sends a case in each (HintFields), and one with all of them; the
	// RetryAfter properties run when Retry-After is among them.
	Fields []string
	// ZeroMeansBackoff says a hint of 0, or a date already past, is no
	// hint: the code waits its backoff, as azcore does, where RFC 9110
	// lets a client retry at once (or after Min).
	ZeroMeansBackoff bool
}

// spec is a Spec with its defaults filled in.
type spec struct {
	Spec
	ra Hints // with defaults; meaningful when Spec.Hints != nil
}

// normalize fills in the defaults and checks the Spec: an error for a
// Spec the suite cannot run (incomplete, contradictory or out of range,
// each named), and warnings for values that are valid but implausible.
func (s Spec) normalize() (spec, []string, error) {
	var incomplete, contradictions, invalid, warnings []string
	bad := func(format string, args ...any) { invalid = append(invalid, fmt.Sprintf(format, args...)) }
	contra := func(format string, args ...any) {
		contradictions = append(contradictions, fmt.Sprintf(format, args...))
	}
	if err := s.Policy.Validate(); err != nil {
		bad("%v", err)
	}
	p := s.Policy
	if p.Attempts == 0 && s.Budget == 0 {
		incomplete = append(incomplete, "the loop never stops: Policy.Attempts is 0 and Budget is 0, want Attempts, a Budget or both")
	}
	if s.AttemptTimeout < 0 {
		bad("an AttemptTimeout of %s, want >= 0s (0 means none)", schedfmt.Duration(s.AttemptTimeout))
	}
	if r := s.RateLimit; r != nil && (r.Every <= 0 || r.Burst < 0) {
		bad("RateLimit{Every: %s, Burst: %d}, want Every > 0s and Burst >= 0 (0 means 1)", schedfmt.Duration(r.Every), r.Burst)
	}
	if s.Budget < 0 {
		bad("a Budget of %s, want >= 0s (0 means none)", schedfmt.Duration(s.Budget))
	}
	if p.Growth > 0 && p.Growth < 1 {
		bad("Policy.Growth %v shrinks every wait, want 1 (a constant wait) or more (0 means 2)", p.Growth)
	}
	if p.Cap > 0 && p.First > p.Cap {
		warnings = append(warnings, fmt.Sprintf("Policy.First %s is above Policy.Cap %s: every wait is the cap", schedfmt.Duration(p.First), schedfmt.Duration(p.Cap)))
	}
	if len(p.Ceilings) == 0 && p.First == 0 && (p.Growth > 1 || p.Jitter == retrytest.FullJitter || p.Jitter == retrytest.EqualJitter || p.Jitter == retrytest.FactorJitter) {
		warnings = append(warnings, fmt.Sprintf("Policy.First is 0: every ceiling is 0, so the %s never makes a wait (First 0 with no jitter is the way to say \"no wait\")", s.Policy))
	}
	out := spec{Spec: s}
	if out.Retryable == nil {
		out.Retryable = slices.Clone(DefaultRetryable)
	}
	if out.Permanent == nil {
		out.Permanent = slices.DeleteFunc(slices.Clone(DefaultPermanent), func(c int) bool { return slices.Contains(out.Retryable, c) })
	}
	for _, c := range out.Retryable {
		if slices.Contains(out.Permanent, c) {
			contra("status %d is both Retryable and Permanent", c)
		}
	}
	for _, c := range append(slices.Clone(out.Retryable), out.Permanent...) {
		if c < 100 || c > 599 {
			bad("status %d, want 100-599", c)
		}
	}
	if r := s.Hints; r != nil {
		out.ra = *r
		if out.ra.Statuses == nil {
			// 429 and 503, of those the code retries.
			out.ra.Statuses = []int{}
			for _, c := range []int{429, 503} {
				if slices.Contains(out.Retryable, c) {
					out.ra.Statuses = append(out.ra.Statuses, c)
				}
			}
			if len(out.ra.Statuses) == 0 {
				contra("Hints with no Statuses reads hints on 429 and 503, but the Spec retries neither: name the statuses the code reads a hint on (Hints.Statuses)")
			}
		}
		if out.ra.Max == 0 {
			out.ra.Max = retryafter.DefaultMax
		}
		if out.ra.Fields == nil {
			out.ra.Fields = []string{"Retry-After"}
		}
		if len(r.Fields) == 0 && r.Fields != nil {
			contra("Hints.Fields is empty: the code reads a hint from no field; want the fields it reads (nil means Retry-After), or Hints nil")
		}
		for _, b := range checkFields(out.ra.Fields) {
			bad("%s", b)
		}
		switch {
		case r.Statuses != nil && len(r.Statuses) == 0:
			contra("Hints.Statuses is empty: the code reads a hint on no status; want the statuses it reads one on (nil means 429 and 503), or Hints nil for code that reads none")
		case out.ra.Min < 0:
			bad("Hints.Min %s, want >= 0s", schedfmt.Duration(out.ra.Min))
		case out.ra.Max < 0:
			bad("Hints.Max %s, want > 0s (0 means %s, retryafter.Forever no ceiling)", schedfmt.Duration(out.ra.Max), schedfmt.Duration(retryafter.DefaultMax))
		case out.ra.Min > out.ra.Max:
			contra("Hints.Min %s is above Hints.Max %s", schedfmt.Duration(out.ra.Min), schedfmt.Duration(out.ra.Max))
		case out.ra.GiveUp && out.ra.Max == retryafter.Forever:
			contra("Hints.GiveUp with Hints.Max retryafter.Forever: no hint is above no ceiling, so the code never gives up on one; drop GiveUp or set a Max")
		}
		for _, c := range r.Statuses {
			switch {
			case slices.Contains(out.Permanent, c):
				contra("Hints are honoured on status %d, which is Permanent", c)
			case !slices.Contains(out.Retryable, c):
				contra("Hints are honoured on status %d, which is not Retryable: a hint delays a retry, so the status must be retried", c)
			}
		}
	}
	names := map[string]bool{}
	for i, v := range s.Signals {
		switch {
		case v.Name == "" || v.Name != strings.ToLower(v.Name) || strings.ContainsAny(v.Name, " /"):
			bad("Signals[%d].Name %q, want one lowercase word: the name of its case", i, v.Name)
		case names[v.Name]:
			contra("Signals name %q twice", v.Name)
		}
		names[v.Name] = true
		if v.Status < 100 || v.Status > 599 {
			bad("Signals[%d] (%s): status %d, want 100-599", i, v.Name, v.Status)
		}
	}
	for st := range s.Bodies {
		if st != 0 && (st < 100 || st > 599) {
			bad("Bodies[%d], want a status 100-599, or 0 for every status not listed", st)
		}
	}
	var errs []string
	if len(incomplete) > 0 {
		errs = append(errs, "conformance: the Spec is incomplete: "+strings.Join(incomplete, "; "))
	}
	if len(contradictions) > 0 {
		errs = append(errs, "conformance: the Spec contradicts itself: "+strings.Join(contradictions, "; "))
	}
	if len(invalid) > 0 {
		errs = append(errs, "conformance: the Spec has values out of range: "+strings.Join(invalid, "; "))
	}
	if len(errs) > 0 {
		return out, warnings, errors.New(strings.Join(errs, "\n"))
	}
	return out, warnings, nil
}

// retries is the number of retries the Policy allows, or -1 without a
// limit.
func (s spec) retries() int {
	if s.Policy.Attempts == 0 {
		return -1
	}
	return s.Policy.Attempts - 1
}
