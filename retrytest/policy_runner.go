package retrytest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// DefaultAttemptLimit is how many attempts RunPolicy and RunPolicyRand
// make at most unless WithAttemptLimit says otherwise. A policy that still
// retries after that many attempts is cut short with an error wrapping
// ErrRunaway. It is far above any real attempt limit and small enough
// that a runaway run costs microseconds.
const DefaultAttemptLimit = 1000

// ErrRunaway is wrapped by the error of a policy run cut short because the
// policy never stopped retrying.
var ErrRunaway = errors.New("retrytest: runaway policy")

// PolicyRun is the schedule a [Policy] produced in [RunPolicy] or
// [RunPolicyRand]. It is a provider the checks and matchers read directly:
//
//	run, err := retrytest.RunPolicy(policy, 7)
//	retrytest.AssertDelaysWithin(t, run, retrytest.Exponential(5*time.Second, 2, time.Hour, 12, retrytest.WithFullJitter())...)
type PolicyRun struct {
	// Decisions are the policy's decisions in order: Decisions[k] was
	// made after attempt k+1 failed. The last one stops retrying, unless
	// the run was cut short (see RunPolicy).
	Decisions []Decision
	// Seed is the seed RunPolicy made the random source from; 0 for
	// RunPolicyRand.
	Seed uint64

	seeded bool
	cut    string // why the run ended without a stop: cutPanicked, cutAtLimit or ""
}

// Why a run ended without a decision to stop, as the result column shows
// it on the run's last attempt.
const (
	cutPanicked = "policy panicked"
	cutAtLimit  = "(not made: attempt limit)"
)

// PolicyRunOption changes how RunPolicy and RunPolicyRand run a policy.
type PolicyRunOption interface{ applyRun(*runOptions) }

type runOptions struct{ limit int }

type runOptionFunc func(*runOptions)

func (f runOptionFunc) applyRun(o *runOptions) { f(o) }

// WithAttemptLimit sets how many attempts a policy run makes at most
// (default DefaultAttemptLimit). To look at the first n decisions of a
// policy that retries forever by design, such as one bounded by a
// deadline elsewhere, pass n and ignore the ErrRunaway error. It panics if
// n is less than 1.
func WithAttemptLimit(n int) PolicyRunOption {
	if n < 1 {
		panic("retrytest: WithAttemptLimit: limit " + strconv.Itoa(n) + ", want >= 1")
	}
	return runOptionFunc(func(o *runOptions) { o.limit = n })
}

// RunPolicy runs p the way a retry loop would if every attempt failed:
// it calls p(0, rng) after attempt 1, p(1, rng) after attempt 2, and so on
// until p stops retrying, and returns every decision. rng is math/rand/v2's
// PCG seeded with (seed, 0), the same stream as seqrand.Seeded(seed), so a
// run is repeatable and a test can sweep seeds:
//
//	for seed := range uint64(50) {
//		run, err := retrytest.RunPolicy(policy, seed)
//		...
//	}
//
// A policy that still retries after the attempt limit (DefaultAttemptLimit,
// or WithAttemptLimit) is cut short: the run holds the decisions made so
// far and the error wraps ErrRunaway. A policy that panics ends the run
// with an error naming the attempt. A nil p is an error. The returned run
// is never nil.
func RunPolicy(p Policy, seed uint64, opts ...PolicyRunOption) (*PolicyRun, error) {
	run, err := runPolicy("RunPolicy", p, rand.New(rand.NewPCG(seed, 0)), opts)
	run.Seed, run.seeded = seed, true
	return run, err
}

// RunPolicyRand is RunPolicy with the random source rng, such as
// rand.New(seqrand.Max()) to pin every draw at the top of its range.
// A nil rng is an error.
func RunPolicyRand(p Policy, rng *rand.Rand, opts ...PolicyRunOption) (*PolicyRun, error) {
	if rng == nil {
		return &PolicyRun{}, errors.New("retrytest: RunPolicyRand: nil *rand.Rand; use RunPolicy for a seeded source")
	}
	return runPolicy("RunPolicyRand", p, rng, opts)
}

func runPolicy(fn string, p Policy, rng *rand.Rand, opts []PolicyRunOption) (run *PolicyRun, err error) {
	run = &PolicyRun{}
	if p == nil {
		return run, fmt.Errorf("retrytest: %s: nil Policy", fn)
	}
	o := runOptions{limit: DefaultAttemptLimit}
	for _, opt := range opts {
		if opt != nil {
			opt.applyRun(&o)
		}
	}
	failed := 0
	defer func() {
		if r := recover(); r != nil {
			run.cut = cutPanicked
			err = fmt.Errorf("retrytest: %s: the policy panicked deciding after attempt %d: %v", fn, failed+1, r)
		}
	}()
	for ; failed < o.limit; failed++ {
		d := p(failed, rng)
		run.Decisions = append(run.Decisions, d)
		if !d.Retry {
			return run, nil
		}
	}
	run.cut = cutAtLimit
	return run, fmt.Errorf("%w: %s: the policy still retries after %d attempts, the limit; a policy must give up by itself, "+
		"after some attempts or some total delay (or raise the limit with WithAttemptLimit)", ErrRunaway, fn, o.limit)
}

// Attempts returns the attempts of the run: attempt 1 at 0s, then one
// attempt after each decision to retry, with that decision's delay. The
// Result of an attempt is what the policy decided after it: "retry:
// backoff" or "stop: exhausted" (the decision's Reason after the verb).
// The slice is a copy and is never nil.
func (r *PolicyRun) Attempts() []Attempt {
	out := []Attempt{{Index: 1}}
	var at time.Duration
	for k, d := range r.Decisions {
		out[k].Result = decisionText(d)
		if !d.Retry {
			break
		}
		at = satdur.Add(at, d.Delay)
		out = append(out, Attempt{Index: k + 2, Delay: d.Delay, At: at, Result: r.cut})
	}
	if len(r.Decisions) == 0 {
		out[0].Result = r.cut
	}
	return out
}

// Delays returns the delay of every decision to retry, in order. The
// slice is a copy and is never nil.
func (r *PolicyRun) Delays() []time.Duration {
	out := []time.Duration{}
	for _, d := range r.Decisions {
		if !d.Retry {
			break
		}
		out = append(out, d.Delay)
	}
	return out
}

// PolicyStop is when and why a policy run stopped, as [PolicyRun.Stop]
// reports it. It is comparable, so a test checks both at once:
//
//	if got, want := run.Stop(), (retrytest.PolicyStop{Attempt: 13, Reason: "exhausted"}); got != want {
//		t.Errorf("Stop() = %+v, want %+v", got, want)
//	}
type PolicyStop struct {
	// Attempt is the attempt after which the policy stopped retrying,
	// which is the number of attempts the run made; 0 when it did not
	// stop.
	Attempt int
	// Reason is the Reason of the decision to stop: "exhausted",
	// "permanent".
	Reason string
}

// Stop reports when and why the policy stopped retrying: after which
// attempt, and the Reason of that decision. A run that ended without a
// decision to stop — cut short at the attempt limit, ended by a panic,
// or given no policy — reports the zero PolicyStop; its error says why.
func (r *PolicyRun) Stop() PolicyStop {
	n := len(r.Decisions)
	if n == 0 || r.Decisions[n-1].Retry {
		return PolicyStop{}
	}
	return PolicyStop{Attempt: n, Reason: r.Decisions[n-1].Reason}
}

// Reasons returns the Reason of every decision, in order.
func (r *PolicyRun) Reasons() []string {
	out := make([]string, len(r.Decisions))
	for i, d := range r.Decisions {
		out[i] = d.Reason
	}
	return out
}

// String describes the run: a summary line and the schedule as a table,
// with what the policy decided after each attempt.
//
//	policy run (seed 1): 3 attempts, stopped after attempt 3: exhausted
//	    attempt  delay  at   result
//	    1        0s     0s   retry: retry-after
//	    2        7s     7s   retry: backoff
//	    3        10s    17s  stop: exhausted
func (r *PolicyRun) String() string {
	a := r.Attempts()
	var b strings.Builder
	b.WriteString("policy run")
	if r.seeded {
		fmt.Fprintf(&b, " (seed %d)", r.Seed)
	}
	n := len(r.Decisions)
	switch {
	case n > 0 && !r.Decisions[n-1].Retry:
		fmt.Fprintf(&b, ": %s, stopped after attempt %d", schedfmt.Count(len(a), "attempt"), n)
		if reason := r.Decisions[n-1].Reason; reason != "" {
			b.WriteString(": " + reason)
		}
	case r.cut == cutPanicked:
		fmt.Fprintf(&b, ": %s, the policy panicked after attempt %d", schedfmt.Count(len(a), "attempt"), len(a))
	case r.cut == cutAtLimit:
		fmt.Fprintf(&b, ": %s, cut short at the attempt limit", schedfmt.Count(n, "attempt"))
	default:
		fmt.Fprintf(&b, ": %s", schedfmt.Count(len(a), "attempt"))
	}
	b.WriteString("\n")
	b.WriteString(schedfmt.Table{Rows: scheduleRows(a), Indent: "  ", FoldNote: "attempts"}.String())
	return strings.TrimSuffix(b.String(), "\n")
}

// GomegaString returns the same text as String.
func (r *PolicyRun) GomegaString() string { return r.String() }

// decisionText is a decision in the result column: "retry: backoff",
// "stop: exhausted", or the bare verb without a reason.
func decisionText(d Decision) string {
	verb := "stop"
	if d.Retry {
		verb = "retry"
	}
	if d.Reason == "" {
		return verb
	}
	return verb + ": " + d.Reason
}
