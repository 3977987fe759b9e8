package conformance

import (
	"errors"
	"testing"
)

// errNilGuard is the error of a breaker suite given no adapter.
var errNilGuard = errors.New("conformance: the adapter is nil, want a func(Seams) that builds the breaker under test")

// TestBreaker checks a circuit breaker around an operation against spec:
// every property runs as a subtest of t (its cases as subtests of that
// one), on a breaker built anew by newGuard for each case, whose
// operation sends a request through a scripted transport on a fresh fake
// clock (or, with RunInBubble, in a bubble: sony/gobreaker and
// failsafe-go read time.Now themselves); it returns the [Report]:
//
//	conformance.TestBreaker(t, spec, func(s conformance.Seams) conformance.Guard {
//		cb := gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{})
//		return func(ctx context.Context, op func(context.Context) error) error {
//			_, err := cb.Execute(func() (struct{}, error) { return struct{}{}, op(ctx) })
//			return err
//		}
//	}, conformance.RunInBubble())
//
// The properties, each judged by the requests that reach the transport:
//
//	TripsWhenDeclared    consecutive, ratio rolling, min-calls rate: opens on the declared failure, not one before or after
//	OpenSendsNothing     sequential concurrent: while open, every call refused with Err at once, no request
//	HalfOpenOnTime       before at probes: open 1ns before the half-open instant; from it Probes calls through, no more
//	ProbeOutcome         success failure: the declared probes close it (counts fresh), or open it again for OpenFor (grown)
//	CountsReset          success interval: a success resets consecutive failures; an Interval-old failure no longer counts
//	WhatCountsAsFailure  a case per status (or the operation's failure, ignored), reset timeout canceled
//	RetriesAndBreaker    tripping open: a Loop's requests per call, and an open breaker neither burns attempts nor hot-loops
func TestBreaker(t *testing.T, spec BreakerSpec, newGuard func(Seams) Guard, opts ...Option) *Report {
	t.Helper()
	c, err := breakerConfig("breaker", spec, opts)
	if err == nil && newGuard == nil {
		err = errNilGuard
	}
	c.brk.newGuard = newGuard
	return runTest(t, c, err, breakerProps())
}

// CheckBreaker is [TestBreaker] returning the [Report] instead of failing
// a t, for an Example. With RunInBubble it returns an error; use
// TestBreaker, which returns the Report too.
func CheckBreaker(spec BreakerSpec, newGuard func(Seams) Guard, opts ...Option) (*Report, error) {
	c, err := breakerConfig("breaker", spec, opts)
	if err == nil && newGuard == nil {
		err = errNilGuard
	}
	c.brk.newGuard = newGuard
	return runCheck(c, err, breakerProps())
}

// TestBreakerClient checks an HTTP client with a circuit breaker (its
// transport over Seams.Transport) against spec, as [TestBreaker] checks a
// breaker around an operation: failures are the Spec's FailureStatuses,
// and a case of WhatCountsAsFailure per status it names.
func TestBreakerClient(t *testing.T, spec BreakerSpec, newClient func(Seams) Do, opts ...Option) *Report {
	t.Helper()
	c, err := breakerConfig("breaker client", spec, opts)
	if err == nil && newClient == nil {
		err = errNilGuard
	}
	c.brk.newClient = newClient
	return runTest(t, c, err, breakerProps())
}

// CheckBreakerClient is [TestBreakerClient] returning the [Report]
// instead of failing a t. With RunInBubble it returns an error.
func CheckBreakerClient(spec BreakerSpec, newClient func(Seams) Do, opts ...Option) (*Report, error) {
	c, err := breakerConfig("breaker client", spec, opts)
	if err == nil && newClient == nil {
		err = errNilGuard
	}
	c.brk.newClient = newClient
	return runCheck(c, err, breakerProps())
}

// breakerConfig is the config of a breaker suite: the Spec checked, the
// options applied.
func breakerConfig(shape string, s BreakerSpec, opts []Option) (*config, error) {
	bs, err := s.normalize()
	c := &config{shape: shape, brk: &breakerRun{spec: bs}}
	for _, o := range opts {
		if o != nil {
			o.apply(c)
		}
	}
	return c, err
}
