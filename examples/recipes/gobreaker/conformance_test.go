package gobreaker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/retrykit/retrykit/examples/internal/conftable"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// errNotFound is what the team's operation returns for a record that is
// not there: the server answered, and the breaker should not count it.
var errNotFound = errors.New("not found")

// guard adapts a gobreaker.CircuitBreaker, made in the suite's bubble with
// st, to the suite: each call is one Execute of the operation.
func guard(st gobreaker.Settings) func(conformance.Seams) conformance.Guard {
	return func(conformance.Seams) conformance.Guard {
		cb := gobreaker.NewCircuitBreaker[struct{}](st)
		return func(ctx context.Context, op func(context.Context) error) error {
			_, err := cb.Execute(func() (struct{}, error) { return struct{}{}, op(ctx) })
			return err
		}
	}
}

// defaultsSpec is gobreaker.Settings{} as its source says (see the package
// doc), with what a team expects of a not-found: not a failure.
func defaultsSpec() conformance.BreakerSpec {
	return conformance.BreakerSpec{
		Breaker:           retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1},
		Err:               gobreaker.ErrOpenState,
		HalfOpenErr:       gobreaker.ErrTooManyRequests,
		IgnoredErr:        errNotFound,
		CanceledIsFailure: true, // gobreaker.go:181-183: every non-nil error
	}
}

// The defaults against what the source says: every property holds but
// the not-found a team would ignore, which gobreaker counts.
func TestConformanceDefaults(t *testing.T) {
	r := conformance.TestBreaker(t, defaultsSpec(), guard(gobreaker.Settings{}), conformance.RunInBubble(),
		conformance.Waive("WhatCountsAsFailure/ignored", "gobreaker.go:181-183: the default IsSuccessful is err == nil: a not-found the operation returns counts as a failure, and six of them open the breaker"),
	)
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/sony/gobreaker/v2", Name: "gobreaker",
		Config: "`gobreaker.Settings{}` defaults, around an operation",
		Claims: "opens on the 6th consecutive failure (`ConsecutiveFailures > 5`), every error a failure, a canceled call too; open 60s, half-open the instant after (`expiry.Before(now)`); 1 probe, `ErrTooManyRequests` beyond it; a not-found the team would not count",
	}, r)
	conftable.Libraries.Pin(t, r, []string{"WhatCountsAsFailure/ignored"}, []string{"CountsReset/interval", "RetriesAndBreaker"})
}

// customSettings is the breaker of gobreaker's README with what a team
// adds: a failure rate of 60% over at least 3 requests, counted per
// minute, open 30s, three probes, and neither a canceled call nor a
// not-found counted.
func customSettings() gobreaker.Settings {
	return gobreaker.Settings{
		MaxRequests: 3,
		Interval:    time.Minute,
		Timeout:     30 * time.Second,
		ReadyToTrip: func(counts gobreaker.Counts) bool {
			failureRatio := float64(counts.TotalFailures) / float64(counts.Requests)
			return counts.Requests >= 3 && failureRatio >= 0.6
		},
		IsExcluded: func(err error) bool {
			return errors.Is(err, context.Canceled) || errors.Is(err, errNotFound)
		},
	}
}

func customSpec() conformance.BreakerSpec {
	return conformance.BreakerSpec{
		Breaker:     retrytest.Breaker{FailureRate: 0.6, MinCalls: 3, Interval: time.Minute, OpenFor: 30 * time.Second, HalfOpensAfter: true, Probes: 3},
		Err:         gobreaker.ErrOpenState,
		HalfOpenErr: gobreaker.ErrTooManyRequests,
		IgnoredErr:  errNotFound,
	}
}

// The custom ReadyToTrip and IsExcluded: the same suite, nothing waived.
func TestConformanceCustom(t *testing.T) {
	r := conformance.TestBreaker(t, customSpec(), guard(customSettings()), conformance.RunInBubble())
	conftable.Libraries.Check(t, conftable.Row{
		Module: "github.com/sony/gobreaker/v2", Name: "gobreaker",
		Config: "README's `ReadyToTrip` (60% of at least 3), `Interval: time.Minute`, `Timeout: 30*time.Second`, `MaxRequests: 3`, `IsExcluded`",
		Claims: "opens when 60% of at least 3 requests fail, counts reset every minute; open 30s, half-open the instant after; 3 probes, all 3 to close, 1 failure to reopen; a canceled call and a not-found excluded",
	}, r)
	conftable.Libraries.Pin(t, r, nil, []string{"CountsReset/success", "RetriesAndBreaker"})
}
