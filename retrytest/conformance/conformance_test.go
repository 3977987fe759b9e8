package conformance

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

func loopOf(b bugs) func(Seams) Loop {
	return func(s Seams) Loop { return newLab(s, b).Do }
}

func clientOf(b bugs) func(Seams) Do {
	return func(s Seams) Do { return (&http.Client{Transport: newLab(s, b)}).Do }
}

func policyOf(b bugs) retrytest.DecideFunc {
	l := newLab(Seams{}, b)
	return l.Decide
}

// inBubbles is an option for the package's own tests: a Check form that
// runs each property in a synctest bubble of t.
func inBubbles(t *testing.T) Option {
	return optionFunc(func(c *config) { c.bubble, c.bubbleT = true, t })
}

// only is an option for the package's own tests: a Check form that runs
// the properties named, and no other.
func only(names ...string) Option {
	return optionFunc(func(c *config) { c.only = names })
}

// failures returns the properties a report failed.
func failures(t *testing.T, r *Report, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return r.Failed()
}

func TestCorrectLabPasses(t *testing.T) {
	t.Run("loop", func(t *testing.T) { TestLoop(t, labSpec(), loopOf(nil)) })
	t.Run("client", func(t *testing.T) { TestClient(t, labSpec(), clientOf(nil)) })
	t.Run("policy", func(t *testing.T) { TestPolicy(t, labSpec(), policyOf(nil)) })
	t.Run("loop in bubble", func(t *testing.T) { TestLoop(t, labSpec(), loopOf(nil), RunInBubble()) })
	t.Run("client in bubble", func(t *testing.T) { TestClient(t, labSpec(), clientOf(nil), RunInBubble()) })
}

// The properties every hint property shares, failed together when the
// hint's status is not retried at all.
var allHints = []string{"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd"}

// Each planted bug fails the properties named here, and no other: one bug,
// one line of the report, wherever the suite can keep them apart.
var plantedBugs = []struct {
	bug               string
	loop, client, pol []string // the properties each shape fails; nil: none
	// inBubble, when set, is what the loop and the client fail in a
	// bubble instead of loop and client
	inBubble *[2][]string
}{
	// The whole fleet retries at the cap in the same instant.
	{bug: "cap-after-jitter", loop: s("NoSpikeAtCap"), client: s("NoSpikeAtCap"), pol: s("NoSpikeAtCap")},
	// 1ms meant as 1s: the cap is never reached, the spread collapses.
	{bug: "cap-in-wrong-unit",
		loop:   s("JitterFromSource", "CapReached", "NoSpikeAtCap"),
		client: s("JitterFromSource", "CapReached", "NoSpikeAtCap"),
		pol:    s("JitterFromSource", "CapReached", "NoSpikeAtCap")},
	{bug: "attempts-counted-as-retries", loop: s("AttemptCount"), client: s("AttemptCount"), pol: s("AttemptCount")},
	// Every ceiling doubled: out of the windows, and the edges missed.
	{bug: "exponent-off-by-one",
		loop:   s("WaitsInWindows", "JitterFromSource"),
		client: s("WaitsInWindows", "JitterFromSource"),
		pol:    s("WaitsInWindows", "JitterFromSource")},
	// A retrier that counts retries across calls; a policy that does is
	// wrong at every decision.
	{bug: "retry-counter-kept",
		loop:   s("FreshEachCall", "ConcurrentCalls"),
		client: s("FreshEachCall", "ConcurrentCalls"),
		pol:    s("WaitsInWindows", "JitterFromSource")},
	{bug: "global-rand", loop: s("JitterFromSource"), client: s("JitterFromSource"), pol: s("JitterFromSource")},
	{bug: "no-jitter",
		loop:   s("JitterFromSource", "NoSpikeAtCap"),
		client: s("JitterFromSource", "NoSpikeAtCap"),
		pol:    s("JitterFromSource", "NoSpikeAtCap")},
	{bug: "wait-ignores-ctx", loop: s("CancelDuringWait", "DeadlineCutsWait"), client: s("CancelDuringWait", "DeadlineCutsWait")},
	// Gives up at once when the next wait would end past the deadline,
	// where the Spec says it waits until the deadline (GivesUpEarly false).
	{bug: "gives-up-early", loop: s("DeadlineCutsWait"), client: s("DeadlineCutsWait")},
	// A timer of the clock left running when the call is canceled; a
	// bubble's timers are the runtime's, collected when dropped.
	{bug: "timer-not-stopped", loop: s("NoLeaks"), client: s("NoLeaks")},
	// Not bugs: an After left to the garbage collector, and a library's
	// marker taken off the permanent error it returns.
	{bug: "after-abandoned"},
	{bug: "permanent-unwrapped"},
	// The permanent error lost: the caller cannot tell why the call ended.
	{bug: "permanent-replaced", loop: s("PermanentNotRetried")},
	{bug: "wait-before-first", loop: s("FirstAttemptImmediate"), client: s("FirstAttemptImmediate")},
	{bug: "wait-after-last", loop: s("NoWaitAfterLastAttempt"), client: s("NoWaitAfterLastAttempt")},
	{bug: "permanent-retried", loop: s("PermanentNotRetried"), pol: s("PermanentNotRetried")},
	{bug: "404-retried", client: s("PermanentNotRetried"), pol: s("PermanentNotRetried")},
	{bug: "key-per-attempt", client: s("IdempotencyKey")},
	{bug: "key-dropped", client: s("IdempotencyKey")},
	{bug: "conn-error-not-retried", client: s("ConnectionErrors"), pol: s("ConnectionErrors")},
	// The hints come on a 429: not retried, none is honoured.
	{bug: "429-not-retried", client: s(append([]string{"RetryableStatuses"}, allHints...)...), pol: s(append([]string{"RetryableStatuses"}, allHints...)...)},
	// No Retry-After and an empty one are the same: an immediate retry.
	{bug: "429-at-once", client: s("RetryableStatuses", "RetryAfterMalformed"), pol: s("RetryableStatuses", "RetryAfterMalformed")},
	{bug: "hint-ignored",
		client: s("RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterAbsurd"),
		pol:    s("RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterAbsurd")},
	// Seconds through strconv.Atoi: no dates (a past one is not read as
	// 0), and 9223372037s wraps.
	{bug: "seconds-only",
		client: s("RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd"),
		pol:    s("RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd")},
	// strconv.ParseFloat reads "NaN" and "-5" as numbers, and no date.
	{bug: "parse-float",
		client: s("RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd"),
		pol:    s("RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd")},
	// "soon", "-5" and a date in CEST all become an immediate retry.
	{bug: "malformed-is-zero",
		client: s("RetryAfterHTTPDate", "RetryAfterMalformed", "RetryAfterAbsurd"),
		pol:    s("RetryAfterHTTPDate", "RetryAfterMalformed", "RetryAfterAbsurd")},
	// The hint plus the backoff: late, and Forever plus anything wraps.
	{bug: "hint-added",
		client: s("RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd"),
		pol:    s("RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterAbsurd")},
	{bug: "hint-unclamped", client: s("RetryAfterClamped", "RetryAfterAbsurd"), pol: s("RetryAfterClamped", "RetryAfterAbsurd")},
	{bug: "hint-unfloored", client: s("RetryAfterFloored"), pol: s("RetryAfterFloored")},
	// No retry at all: the properties about waits have none to judge and
	// skip, naming AttemptCount; what a client or a policy claims about
	// statuses, errors and hints fails on its own.
	{bug: "never-retries",
		loop:   s("AttemptCount"),
		client: s(append([]string{"AttemptCount", "RetryableStatuses", "ConnectionErrors"}, allHints...)...),
		pol:    s(append([]string{"AttemptCount", "RetryableStatuses", "ConnectionErrors"}, allHints...)...)},
	// The suite's clock taken and a real timer used: one root cause, and
	// every property that reads waits skips, naming it. In a bubble the
	// time package is the fake clock, so there is no bug.
	// In a bubble a real time.After is the bubble's time: the loop, which
	// never touches Seams.Clock, calls the time package itself, which is
	// no fault there; the client, which reads Seams.Clock and then waits
	// on something else, is caught (issue 37).
	{bug: "real-timer", loop: s("WaitsOnTheClock"), client: s("WaitsOnTheClock"), inBubble: &[2][]string{nil, s("WaitsOnTheClock")}},
	// Dates read in one of RFC 9110's three forms, or all but one.
	{bug: "rfc850-not-read", client: s("RetryAfterHTTPDate"), pol: s("RetryAfterHTTPDate")},
	{bug: "imf-only", client: s("RetryAfterHTTPDate"), pol: s("RetryAfterHTTPDate")},
	// A request timeout taken for a final answer (seed 000: it is
	// transient).
	// A timer of the call left running when the call succeeds: a leak
	// only a successful call shows (a bubble's timers are collected).
	{bug: "success-timer-left", loop: s("NoLeaks")},
	// The body of a retried response never closed (issue 32, point 2):
	// seen by the transport, with or without a client Timeout, on the
	// fake clock and in a bubble.
	{bug: "body-left-open", client: s("NoLeaks")},
	{bug: "408-not-retried", client: s("RetryableStatuses"), pol: s("RetryableStatuses")},
}

func s(names ...string) []string { return names }

func TestPlantedBugs(t *testing.T) {
	for _, tc := range plantedBugs {
		t.Run(tc.bug, func(t *testing.T) {
			b := bugs{tc.bug: true}
			check := func(shape string, want []string, r *Report, err error) {
				t.Helper()
				if got := failures(t, r, err); !slices.Equal(got, want) {
					t.Errorf("%s with bug %s: failed %v, want %v\n%s", shape, tc.bug, got, want, r)
				}
			}
			r, err := CheckLoop(labSpec(), loopOf(b))
			check("loop", tc.loop, r, err)
			r, err = CheckClient(labSpec(), clientOf(b))
			check("client", tc.client, r, err)
			r, err = CheckPolicy(labSpec(), policyOf(b))
			check("policy", tc.pol, r, err)
		})
	}
}

// In a bubble the same bugs fail the same properties.
func TestPlantedBugsInBubble(t *testing.T) {
	for _, tc := range plantedBugs {
		if tc.loop == nil && tc.client == nil {
			continue
		}
		t.Run(tc.bug, func(t *testing.T) {
			b := bugs{tc.bug: true}
			wantLoop, wantClient := tc.loop, tc.client
			if tc.inBubble != nil {
				wantLoop, wantClient = tc.inBubble[0], tc.inBubble[1]
			}
			r, err := CheckLoop(labSpec(), loopOf(b), inBubbles(t))
			if got := failures(t, r, err); !slices.Equal(got, wantLoop) {
				t.Errorf("loop with bug %s in a bubble: failed %v, want %v\n%s", tc.bug, got, wantLoop, r)
			}
			r, err = CheckClient(labSpec(), clientOf(b), inBubbles(t))
			if got := failures(t, r, err); !slices.Equal(got, wantClient) {
				t.Errorf("client with bug %s in a bubble: failed %v, want %v\n%s", tc.bug, got, wantClient, r)
			}
		})
	}
}

// Code with its own budget: 2s of retries with no attempt limit (a loop),
// and 1s with 6 attempts (a client), which the Budget cuts short at the Max
// source (1.5s of waits), and whose 7s and 10s hints end past it.
func TestBudget(t *testing.T) {
	loopSpec := labSpec()
	loopSpec.Policy.Attempts = 0
	loopSpec.Budget = 2 * time.Second
	clientSpec := labSpec()
	clientSpec.Budget = time.Second
	budgeted := func(s Seams, b bugs, attempts int, budget time.Duration) *lab {
		l := newLab(s, b)
		l.pol.Attempts, l.budget = attempts, budget
		return l
	}
	loop := func(b bugs) func(Seams) Loop {
		return func(s Seams) Loop { return budgeted(s, b, 0, 2*time.Second).Do }
	}
	client := func(b bugs) func(Seams) Do {
		return func(s Seams) Do { return (&http.Client{Transport: budgeted(s, b, 6, time.Second)}).Do }
	}
	t.Run("loop", func(t *testing.T) { TestLoop(t, loopSpec, loop(nil)) })
	t.Run("client", func(t *testing.T) { TestClient(t, clientSpec, client(nil)) })
	t.Run("client in bubble", func(t *testing.T) { TestClient(t, clientSpec, client(nil), RunInBubble()) })
	r, err := CheckLoop(loopSpec, loop(bugs{"budget-ignored": true}))
	if got, want := failures(t, r, err), s("BudgetHonoured"); !slices.Equal(got, want) {
		t.Errorf("loop ignoring its budget: failed %v, want %v\n%s", got, want, r)
	}
	// A Budget the attempts never reach cannot be checked: skipped, saying
	// why.
	long := labSpec()
	long.Budget = 10 * time.Second
	r, err = CheckLoop(long, loopOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range r.Results {
		if res.Property == "BudgetHonoured" && (res.Verdict != Skipped || res.Message != "the 6 attempts end by 1.5s even at the longest waits, before the 10s Budget (AttemptCount checks them)") {
			t.Errorf("BudgetHonoured with a Budget past the last attempt: %v %q, want it skipped, saying why", res.Verdict, res.Message)
		}
	}
	// With only a Budget to end it, a jitter from elsewhere changes the
	// number of attempts from call to call: that is JitterFromSource's
	// finding, not state shared between calls.
	r, err = CheckLoop(loopSpec, loop(bugs{"global-rand": true}))
	if got, want := failures(t, r, err), s("JitterFromSource"); !slices.Equal(got, want) {
		t.Errorf("loop with a Budget drawing from the global source: failed %v, want %v\n%s", got, want, r)
	}
	// The client's 7s and 10s hints retry past the Budget it ignores.
	r, err = CheckClient(clientSpec, client(bugs{"budget-ignored": true}))
	if got, want := failures(t, r, err), s("RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterAbsurd", "BudgetHonoured"); !slices.Equal(got, want) {
		t.Errorf("client ignoring its budget: failed %v, want %v\n%s", got, want, r)
	}
}

// Code that gives up when its next wait would end past the deadline meets
// a Spec that says so.
func TestGivesUpEarly(t *testing.T) {
	spec := labSpec()
	spec.GivesUpEarly = true
	TestLoop(t, spec, loopOf(bugs{"gives-up-early": true}))
	TestClient(t, spec, clientOf(bugs{"gives-up-early": true}))
}
