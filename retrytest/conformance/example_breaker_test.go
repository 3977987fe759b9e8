package conformance_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

var errOpen = errors.New("breaker: open")

// breaker is the code under test: it opens after five consecutive
// failures, for a minute, then lets one probe through; it reads the clock
// it is given. Its threshold check is > where the doc says >=.
type breaker struct {
	clk       clockwork.Clock
	mu        sync.Mutex
	failures  int
	openUntil time.Time
	probing   bool
}

func (b *breaker) Do(ctx context.Context, op func(context.Context) error) error {
	b.mu.Lock()
	now := b.clk.Now()
	if now.Before(b.openUntil) || b.probing {
		b.mu.Unlock()
		return errOpen
	}
	probe := !b.openUntil.IsZero()
	b.probing = probe
	b.mu.Unlock()
	err := op(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.probing = false
	switch {
	case err == nil:
		b.failures, b.openUntil = 0, time.Time{}
	case probe:
		b.openUntil = b.clk.Now().Add(time.Minute)
	default:
		if b.failures++; b.failures > 5 {
			b.failures, b.openUntil = 0, b.clk.Now().Add(time.Minute)
		}
	}
	return err
}

// A breaker checked against what its doc claims: every call of a Guard
// sends one request through the suite's scripted transport, and the one
// property that fails shows the calls, the request that should not have
// been sent marked.
func ExampleCheckBreaker() {
	spec := conformance.BreakerSpec{
		Breaker:           retrytest.Breaker{Threshold: 5, OpenFor: time.Minute, Probes: 1},
		Err:               errOpen,
		CanceledIsFailure: true, // every error counts
	}
	report, err := conformance.CheckBreaker(spec, func(s conformance.Seams) conformance.Guard {
		return (&breaker{clk: s.Clock}).Do
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(report)
	// Output:
	// conformance of the breaker: 1 of 7 properties fails
	//     property             result
	//   > TripsWhenDeclared    FAIL: consecutive
	//     OpenSendsNothing     pass
	//     HalfOpenOnTime       pass
	//     ProbeOutcome         pass
	//     CountsReset          pass: interval skipped
	//     WhatCountsAsFailure  pass
	//     RetriesAndBreaker    skip: the Spec declares no retry loop (BreakerSpec.Loop)
	//
	// --- TripsWhenDeclared/consecutive
	// 1 request reached the transport at 0s, want refused: 5 consecutive failures open it (FFFFF), and it did not open on the last
	//     call  at  answer  want               requests  returned
	//     1     0s  503     through            1         0s: conformance: the operation failed: 503 Service Unavailable
	//     2     0s  503     through            1         0s: conformance: the operation failed: 503 Service Unavailable
	//     3     0s  503     through            1         0s: conformance: the operation failed: 503 Service Unavailable
	//     4     0s  503     through            1         0s: conformance: the operation failed: 503 Service Unavailable
	//     5     0s  503     through: it opens  1         0s: conformance: the operation failed: 503 Service Unavailable
	//   > 6     0s  200     refused: open      1         0s: <nil>  <-- 1 request reached the transport at 0s, want refused
}
