package conformance

import (
	"errors"
	"fmt"
	"slices"
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
	// attempts in all (the first call included). The suite holds every
	// wait to Policy.Window of its retry.
	Policy retrytest.Policy
	// Budget is the overall time the code allows a call, when it enforces
	// one itself (a MaxElapsedTime); 0 means none. A Spec needs
	// Policy.Attempts or a Budget, so that the loop stops.
	Budget time.Duration
	// GivesUpEarly says the code gives up before a deadline or its Budget
	// when its next wait would end past it (cenkalti/backoff does),
	// instead of waiting until the deadline interrupts the wait.
	GivesUpEarly bool
	// RetryAfter says how the code honours a server's Retry-After; nil
	// means it does not, and the properties about it are skipped.
	Hints *Hints
	// Retryable are the statuses a client must retry; nil means 429, 500,
	// 502, 503 and 504. Permanent are those it must not; nil means 400,
	// 401, 403, 404 and 501.
	Retryable, Permanent []int
	// PermanentErr is an error that a loop or a policy must not retry,
	// such as a value wrapped by the library's Permanent; a loop must
	// return it, or the error it wraps. nil skips that property for loops
	// and policies (a client's permanent failures are its Permanent
	// statuses).
	PermanentErr error
	// IdempotencyKey is the header a client must send with the same value
	// on every attempt of a call, and a different one on the next call;
	// "" means the client sends none, and the property is skipped.
	IdempotencyKey string
}

// Hints says how the code honours a server's wait hints (Retry-After).
type Hints struct {
	// Statuses are the statuses whose Retry-After the code reads; nil
	// means 429 and 503.
	Statuses []int
	// Min is the floor: a shorter hint, 0 included, is raised to it.
	Min time.Duration
	// Max is the ceiling: a longer hint is cut to it, or, with GiveUp, the
	// code gives up. 0 means retryafter.DefaultMax, five minutes.
	Max time.Duration
	// GiveUp makes a hint above Max end the call instead of being cut.
	GiveUp bool
}

// spec is a Spec with its defaults filled in.
type spec struct {
	Spec
	ra Hints // with defaults; meaningful when Spec.Hints != nil
}

func (s Spec) normalize() (spec, error) {
	var errs []error
	if err := s.Policy.Validate(); err != nil {
		errs = append(errs, err)
	}
	if s.Policy.Attempts == 0 && s.Budget == 0 {
		errs = append(errs, errors.New("the loop never stops: Policy.Attempts is 0 and Budget is 0, want Attempts, a Budget or both"))
	}
	if s.Budget < 0 {
		errs = append(errs, fmt.Errorf("a Budget of %s, want >= 0s (0 means none)", schedfmt.Duration(s.Budget)))
	}
	out := spec{Spec: s}
	if out.Retryable == nil {
		out.Retryable = []int{429, 500, 502, 503, 504}
	}
	if out.Permanent == nil {
		out.Permanent = []int{400, 401, 403, 404, 501}
	}
	for _, c := range out.Retryable {
		if slices.Contains(out.Permanent, c) {
			errs = append(errs, fmt.Errorf("status %d is both Retryable and Permanent", c))
		}
	}
	for _, c := range append(slices.Clone(out.Retryable), out.Permanent...) {
		if c < 100 || c > 599 {
			errs = append(errs, fmt.Errorf("status %d, want 100-599", c))
		}
	}
	if r := s.Hints; r != nil {
		out.ra = *r
		if out.ra.Statuses == nil {
			out.ra.Statuses = []int{429, 503}
		}
		if out.ra.Max == 0 {
			out.ra.Max = retryafter.DefaultMax
		}
		switch {
		case out.ra.Min < 0:
			errs = append(errs, fmt.Errorf("Hints.Min %s, want >= 0s", schedfmt.Duration(out.ra.Min)))
		case out.ra.Max < 0:
			errs = append(errs, fmt.Errorf("Hints.Max %s, want > 0s (0 means %s)", schedfmt.Duration(out.ra.Max), schedfmt.Duration(retryafter.DefaultMax)))
		case out.ra.Min > out.ra.Max:
			errs = append(errs, fmt.Errorf("Hints.Min %s is above Hints.Max %s", schedfmt.Duration(out.ra.Min), schedfmt.Duration(out.ra.Max)))
		}
		for _, c := range out.ra.Statuses {
			if slices.Contains(out.Permanent, c) {
				errs = append(errs, fmt.Errorf("Hints are honoured on status %d, which is Permanent", c))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("conformance: the Spec contradicts itself: %w", err)
	}
	return out, nil
}

// clampHint is the wait the Spec says a hint of d must give, and whether
// the code must give up instead.
func (s spec) clampHint(d time.Duration) (time.Duration, bool) {
	if d > s.ra.Max {
		return s.ra.Max, s.ra.GiveUp
	}
	return max(d, s.ra.Min), false
}

// retries is the number of retries the Policy allows, or -1 without a
// limit.
func (s spec) retries() int {
	if s.Policy.Attempts == 0 {
		return -1
	}
	return s.Policy.Attempts - 1
}
