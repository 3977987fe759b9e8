package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/circuit"
	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// Guard is a circuit breaker around an operation, wired to the suite's
// seams: it calls op when it lets the call through and returns what op
// returns, or returns its own error when it refuses the call. With
// sony/gobreaker:
//
//	func(ctx context.Context, op func(context.Context) error) error {
//		_, err := cb.Execute(func() (struct{}, error) { return struct{}{}, op(ctx) })
//		return err
//	}
//
// A retry loop around the breaker, or inside it, belongs in the Guard too,
// as the code composes them; BreakerSpec.Loop declares it.
type Guard func(ctx context.Context, op func(ctx context.Context) error) error

// BreakerSpec is the contract a circuit breaker claims, for [TestBreaker]
// and [TestBreakerClient]: the declared breaker, the errors it refuses a
// call with, what it counts as a failure, and the retry loop composed with
// it. A Spec that contradicts itself is an error naming the field, before
// anything runs.
type BreakerSpec struct {
	// Breaker is the declared breaker: the failures that open it, how long
	// it stays open and when it half-opens, its probes.
	Breaker retrytest.Breaker
	// Err is the error a call the open breaker refuses returns, as
	// errors.Is finds it (gobreaker.ErrOpenState, circuitbreaker.ErrOpen).
	// Required.
	Err error
	// HalfOpenErr is the error of a call the half-open breaker refuses
	// beyond its probes (gobreaker.ErrTooManyRequests); nil means Err.
	HalfOpenErr error
	// FailureStatuses are the statuses a client's breaker counts as
	// failures; nil means 500, 502, 503 and 504. IgnoredStatuses are
	// statuses it must not count: the server answered, and a 404 says
	// nothing of its health; nil means 400 and 404. An empty list names
	// none. Connection resets and timeouts are always failures.
	FailureStatuses, IgnoredStatuses []int
	// IgnoredErr is an error of the operation that the breaker must not
	// count as a failure (TestBreaker): a not-found, a validation error;
	// nil leaves that case out. The operation's other errors are
	// failures.
	IgnoredErr error
	// CanceledIsFailure says a call whose context the caller cancels while
	// the server has not answered counts as a failure, as sony/gobreaker
	// counts every non-nil error by default; false, that it must not
	// count (gobreaker's IsExcluded, failsafe-go's HandleIf).
	CanceledIsFailure bool
	// Loop is the retry loop composed with the breaker, if the code has
	// one; nil means each call is one attempt.
	Loop *BreakerLoop
}

// BreakerLoop is a retry loop composed with a circuit breaker, and where it
// sits: every call of the code makes up to Policy.Attempts attempts.
type BreakerLoop struct {
	// Policy is the loop's backoff and attempts (Attempts is required,
	// at most 1000: the suite drives calls to their end). The suite hands
	// the loop the top of its random source, and its waits must end
	// before the breaker's OpenFor does.
	Policy retrytest.Policy
	// Outside says the loop calls the breaker on every attempt
	// (failsafe.With(retryPolicy, breaker)): the breaker counts a failure
	// per attempt and refuses each attempt while open. false says the
	// breaker is outside the loop, around the whole retrying call: it
	// counts one failure per call, and an open breaker refuses the call
	// before the loop runs.
	Outside bool
	// StopsWhenOpen says a loop outside the breaker returns the breaker's
	// error at once instead of retrying it after its backoff
	// (failsafe-go's AbortOnErrors(circuitbreaker.ErrOpen)).
	StopsWhenOpen bool
}

// maxLoopAttempts is the most attempts a BreakerLoop may make, and the
// most calls a Breaker may count: the suite drives each call to its end,
// wait by wait, and makes as many calls as open the breaker.
const maxLoopAttempts = 1000

// breakerSpec is a BreakerSpec with its defaults filled in.
type breakerSpec struct {
	BreakerSpec
	params circuit.Params
}

// normalize fills in the defaults and checks the Spec: an error naming
// each field that is missing, out of range or contradicts another.
func (s BreakerSpec) normalize() (breakerSpec, error) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if err := s.Breaker.Validate(); err != nil {
		bad("%s", strings.ReplaceAll(strings.TrimPrefix(err.Error(), "retrytest: "), "\n", "; Breaker: "))
	}
	if b := s.Breaker; max(b.Threshold, b.OutOf, b.MinCalls, b.Probes) > maxLoopAttempts {
		bad("Breaker: Threshold %d, OutOf %d, MinCalls %d, Probes %d: the suite makes as many calls as they count, want each at most %d", b.Threshold, b.OutOf, b.MinCalls, b.Probes, maxLoopAttempts)
	}
	if s.Err == nil {
		bad("Err nil: the error the open breaker refuses a call with is required, so that every refusal is told from a failure")
	}
	out := breakerSpec{BreakerSpec: s, params: circuit.Params(s.Breaker)}
	if out.FailureStatuses == nil {
		out.FailureStatuses = []int{500, 502, 503, 504}
	}
	if out.IgnoredStatuses == nil {
		out.IgnoredStatuses = []int{400, 404}
	}
	for _, c := range out.FailureStatuses {
		if slices.Contains(out.IgnoredStatuses, c) {
			bad("status %d is in both FailureStatuses and IgnoredStatuses", c)
		}
	}
	for _, c := range slices.Concat(out.FailureStatuses, out.IgnoredStatuses) {
		switch {
		case c < 100 || c > 599:
			bad("status %d, want 100-599", c)
		case c < 300 && slices.Contains(out.FailureStatuses, c):
			bad("FailureStatuses holds %d, a success", c)
		}
	}
	if out.IgnoredErr != nil && s.Err != nil && errors.Is(out.IgnoredErr, s.Err) {
		bad("IgnoredErr %v is the breaker's Err: a refusal is not an outcome of the operation", out.IgnoredErr)
	}
	if l := s.Loop; l != nil {
		if err := l.Policy.Validate(); err != nil {
			bad("Loop.%s", strings.TrimPrefix(err.Error(), "retrytest: "))
		}
		switch {
		case l.Policy.Attempts == 0:
			bad("Loop.Policy.Attempts 0: the suite drives every call to its end, want the loop's attempts in all")
		case l.Policy.Attempts > maxLoopAttempts:
			bad("Loop.Policy.Attempts %d: the suite drives every call to its end, want at most %d", l.Policy.Attempts, maxLoopAttempts)
		}
		if l.StopsWhenOpen && !l.Outside {
			bad("Loop.StopsWhenOpen without Loop.Outside: a loop inside the breaker never sees its error")
		}
		if l.Policy.Validate() == nil && l.Policy.Attempts > 0 && l.Policy.Attempts <= maxLoopAttempts && s.Breaker.OpenFor > 0 {
			if d := out.loopMax(); d >= s.Breaker.OpenFor {
				bad("Loop: its waits last up to %s in all, not less than Breaker.OpenFor %s: a call could outlast the open breaker, and the suite could not tell its probe from a leak; want a shorter loop, or a longer OpenFor", schedfmt.Duration(d), schedfmt.Duration(s.Breaker.OpenFor))
			}
		}
	}
	if len(problems) > 0 {
		return out, errors.New("conformance: the BreakerSpec cannot run: " + strings.Join(problems, "; "))
	}
	return out, nil
}

// attempts is how many attempts one call makes at most.
func (s breakerSpec) attempts() int {
	if s.Loop == nil {
		return 1
	}
	return s.Loop.Policy.Attempts
}

// perAttempt reports whether the breaker counts every attempt (a loop
// outside it) rather than every call.
func (s breakerSpec) perAttempt() bool { return s.Loop != nil && s.Loop.Outside }

// waitsWhenOpen reports whether a call the open breaker refuses keeps
// waiting: a loop outside the breaker that retries its error.
func (s breakerSpec) waitsWhenOpen() bool {
	return s.Loop != nil && s.Loop.Outside && !s.Loop.StopsWhenOpen && s.Loop.Policy.Attempts > 1
}

// loopWaits is the sum of the windows of the loop's waits, retries 1 to
// n: the least and the most a call of n+1 attempts waits in all.
func (s breakerSpec) loopWaits(n int) (lo, hi time.Duration) {
	if s.Loop == nil {
		return 0, 0
	}
	for k := 1; k <= n; k++ {
		w := s.Loop.Policy.Window(k)
		lo, hi = satdur.Add(lo, w.Min), satdur.Add(hi, w.Max)
	}
	return lo, hi
}

// loopMax is the most a call waits in all: every wait of the loop at the
// top of its window.
func (s breakerSpec) loopMax() time.Duration {
	_, hi := s.loopWaits(s.attempts() - 1)
	return hi
}

// tripAfter is how many failures in a row the declared breaker takes to
// open from fresh counts: Threshold, or MinCalls for a FailureRate (every
// share is reached by failures alone).
func (s breakerSpec) tripAfter() int {
	if s.Breaker.FailureRate > 0 {
		return max(s.Breaker.MinCalls, 1)
	}
	return s.Breaker.Threshold
}

// halfOpenErr is the error a call the half-open breaker refuses returns.
func (s breakerSpec) halfOpenErr() error {
	if s.HalfOpenErr != nil {
		return s.HalfOpenErr
	}
	return s.Err
}

// halfOpenAt is when a breaker that opened at trip, for d, half-opens.
func (s breakerSpec) halfOpenAt(trip, d time.Duration) time.Duration {
	h := satdur.Add(trip, d)
	if s.Breaker.HalfOpensAfter {
		h = satdur.Add(h, 1)
	}
	return h
}

// failStatus is the status of a client's failing answer: 503 if the Spec
// counts it, else the first it counts.
func (s breakerSpec) failStatus() int {
	if slices.Contains(s.FailureStatuses, 503) || len(s.FailureStatuses) == 0 {
		return 503
	}
	return s.FailureStatuses[0]
}
