package policysim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// DefaultAttemptLimit is how many attempts Run and RunRand
// make at most unless WithAttemptLimit says otherwise. A policy that still
// retries after that many attempts is cut short with an error wrapping
// ErrRunaway. It is far above any real attempt limit and small enough
// that a runaway run costs microseconds.
const DefaultAttemptLimit = 1000

// ErrRunaway is wrapped by the error of a job cut short because the
// policy never stopped retrying.
var ErrRunaway = errors.New("policysim: runaway policy")

// Job is the schedule one job made under a pure policy in [Run] or
// [RunRand], every attempt failing. It is a [retrytest.Schedule]: the checks
// and matchers read it directly:
//
//	job, err := policysim.Run(policy.Decide, 7)
//	retrytest.AssertDelaysWithin(t, job, policy.Windows()...)
type Job struct {
	// Decisions are the policy's decisions in order: Decisions[k] was
	// made after attempt k+1 failed. The last one stops retrying, unless
	// the run was cut short (see Run).
	Decisions []retrytest.Decision
	// Seed is the seed Run made the random source from; 0 for
	// RunRand.
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

// RunOption changes how Run and RunRand run a policy.
type RunOption interface{ applyRun(*runOptions) }

type runOptions struct{ limit int }

type runOptionFunc func(*runOptions)

func (f runOptionFunc) applyRun(o *runOptions) { f(o) }

// WithAttemptLimit sets how many attempts a job makes at most
// (default DefaultAttemptLimit). To look at the first n decisions of a
// policy that retries forever by design, such as one bounded by a
// deadline elsewhere, pass n and ignore the ErrRunaway error. It panics if
// n is less than 1.
func WithAttemptLimit(n int) RunOption {
	if n < 1 {
		panic("policysim: WithAttemptLimit: limit " + strconv.Itoa(n) + ", want >= 1")
	}
	return runOptionFunc(func(o *runOptions) { o.limit = n })
}

// Run runs p the way a retry loop would if every attempt failed:
// it calls p(0, o, rng) after attempt 1, p(1, o, rng) after attempt 2, and
// so on until p stops retrying, and returns every decision. Each o is a
// transient failure: a 503 with no header, Now the instant the attempt
// failed (fakeclock.Epoch plus the delays so far). rng is math/rand/v2's
// PCG seeded with (seed, 0), the same stream as seqrand.Seeded(seed), so a
// run is repeatable and a test can sweep seeds:
//
//	for seed := range uint64(50) {
//		run, err := policysim.Run(policy.Decide, seed)
//		...
//	}
//
// A policy that still retries after the attempt limit (DefaultAttemptLimit,
// or WithAttemptLimit) is cut short: the run holds the decisions made so
// far and the error wraps ErrRunaway. A policy that panics ends the run
// with an error naming the attempt. A nil p is an error. The returned run
// is never nil.
func Run(p retrytest.DecideFunc, seed uint64, opts ...RunOption) (*Job, error) {
	run, err := runPolicy("Run", p, rand.New(rand.NewPCG(seed, 0)), opts)
	run.Seed, run.seeded = seed, true
	return run, err
}

// RunRand is Run with the random source rng, such as
// rand.New(seqrand.Max()) to pin every draw at the top of its range.
// A nil rng is an error.
func RunRand(p retrytest.DecideFunc, rng *rand.Rand, opts ...RunOption) (*Job, error) {
	if rng == nil {
		return &Job{}, errors.New("policysim: RunRand: nil *rand.Rand; use Run for a seeded source")
	}
	return runPolicy("RunRand", p, rng, opts)
}

func runPolicy(fn string, p retrytest.DecideFunc, rng *rand.Rand, opts []RunOption) (run *Job, err error) {
	run = &Job{}
	if p == nil {
		return run, fmt.Errorf("policysim: %s: nil policy", fn)
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
			err = fmt.Errorf("policysim: %s: the policy panicked deciding after attempt %d: %v", fn, failed+1, r)
		}
	}()
	var at time.Duration // when the attempt failed, from the start
	for ; failed < o.limit; failed++ {
		d := p(failed, transient(at), rng)
		run.Decisions = append(run.Decisions, d)
		if !d.Retry {
			return run, nil
		}
		at = satdur.Add(at, d.Delay)
	}
	run.cut = cutAtLimit
	return run, fmt.Errorf("%w: %s: the policy still retries after %d attempts, the limit; a policy must give up by itself, "+
		"after some attempts or some total delay (or raise the limit with WithAttemptLimit)", ErrRunaway, fn, o.limit)
}

// attempts returns the attempts of the run: attempt 1 at 0s, then one
// attempt after each decision to retry, with that decision's delay. The
// Result of an attempt is what the policy decided after it: "retry:
// backoff" or "stop: exhausted" (the decision's Reason after the verb).
func (r *Job) attempts() []recorder.Attempt {
	out := []recorder.Attempt{{Index: 1}}
	var at time.Duration
	for k, d := range r.Decisions {
		out[k].Result = d.String()
		if !d.Retry {
			break
		}
		at = satdur.Add(at, d.Delay)
		out = append(out, recorder.Attempt{Index: k + 2, Delay: d.Delay, At: at, Result: r.cut})
	}
	if len(r.Decisions) == 0 {
		out[0].Result = r.cut
	}
	return out
}

// RetrySchedule reports the job's attempts for the checks of package
// retrytest (see [retrytest.Schedule]): when each began, and what the
// policy decided after it.
func (r *Job) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	for _, a := range r.attempts() {
		attempts = append(attempts, a.At)
		results = append(results, a.Result)
	}
	return attempts, results, nil, ""
}

// Delays returns the delay of every decision to retry, in order. The
// slice is a copy and is never nil.
func (r *Job) Delays() []time.Duration {
	out := []time.Duration{}
	for _, d := range r.Decisions {
		if !d.Retry {
			break
		}
		out = append(out, d.Delay)
	}
	return out
}

// GaveUp is when and why a job gave up, as [Job.GaveUp] reports it: the
// stop the simulation observed (retrytest.Stop is the one a check
// expects). It is comparable, so a test checks both at once:
//
//	if got, want := run.GaveUp(), (policysim.GaveUp{Attempt: 13, Reason: "exhausted"}); got != want {
//		t.Errorf("GaveUp() = %+v, want %+v", got, want)
//	}
type GaveUp struct {
	// Attempt is the attempt after which the policy stopped retrying,
	// which is the number of attempts the run made; 0 when it did not
	// stop.
	Attempt int
	// Reason is the Reason of the decision to stop: "exhausted",
	// "permanent".
	Reason string
}

// GaveUp reports when and why the policy stopped retrying: after which
// attempt, and the Reason of that decision. A run that ended without a
// decision to stop — cut short at the attempt limit, ended by a panic,
// or given no policy — reports the zero GaveUp; its error says why.
func (r *Job) GaveUp() GaveUp {
	n := len(r.Decisions)
	if n == 0 || r.Decisions[n-1].Retry {
		return GaveUp{}
	}
	return GaveUp{Attempt: n, Reason: r.Decisions[n-1].Reason}
}

// Reasons returns the Reason of every decision, in order.
func (r *Job) Reasons() []string {
	out := make([]string, len(r.Decisions))
	for i, d := range r.Decisions {
		out[i] = d.Reason
	}
	return out
}

// String describes the run: a summary line and the schedule as a table,
// with what the policy decided after each attempt.
//
//	job (seed 1): 3 attempts, stopped after attempt 3: exhausted
//	    attempt  delay  at   result
//	    1        0s     0s   retry: retry-after
//	    2        7s     7s   retry: backoff
//	    3        10s    17s  stop: exhausted
func (r *Job) String() string {
	a := r.attempts()
	var b strings.Builder
	b.WriteString("job")
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
	rows := make([]schedfmt.Row, len(a))
	for i, at := range a {
		rows[i] = schedfmt.AttemptRow(at.Index, at.Delay, at.At, at.Result)
	}
	b.WriteString(schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts"}.String())
	return strings.TrimSuffix(b.String(), "\n")
}

// GomegaString returns the same text as String.
func (r *Job) GomegaString() string { return r.String() }
