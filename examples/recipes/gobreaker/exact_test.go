package gobreaker_test

import (
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The Spec of the defaults is exact: each of its fields one step off
// fails the properties that read it, pinned here. The failures are
// waived, so that a Spec that still held would fail the test as a stale
// waiver, and any other failure fails it.
func TestDefaultsSpecIsExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*conformance.BreakerSpec)
		want []string
	}{
		{"opens after 5", func(s *conformance.BreakerSpec) { s.Breaker.Threshold = 5 }, []string{"TripsWhenDeclared/consecutive"}},
		{"opens after 7", func(s *conformance.BreakerSpec) { s.Breaker.Threshold = 7 }, []string{"TripsWhenDeclared/consecutive", "ProbeOutcome/success", "CountsReset/success"}},
		{"half-open at trip+60s", func(s *conformance.BreakerSpec) { s.Breaker.HalfOpensAfter = false }, []string{"HalfOpenOnTime/at", "HalfOpenOnTime/probes"}},
		{"open 59s", func(s *conformance.BreakerSpec) { s.Breaker.OpenFor = 59 * time.Second }, []string{"HalfOpenOnTime/at", "HalfOpenOnTime/probes"}},
		{"open 61s", func(s *conformance.BreakerSpec) { s.Breaker.OpenFor = 61 * time.Second }, []string{"HalfOpenOnTime/before", "ProbeOutcome/failure"}},
		{"2 probes", func(s *conformance.BreakerSpec) { s.Breaker.Probes = 2 }, []string{"HalfOpenOnTime/probes"}},
		{"a cancel not counted", func(s *conformance.BreakerSpec) { s.CanceledIsFailure = false }, []string{"WhatCountsAsFailure/canceled"}},
		{"refused with ErrOpenState in half-open", func(s *conformance.BreakerSpec) { s.HalfOpenErr = nil }, []string{"HalfOpenOnTime/probes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := defaultsSpec()
			tc.edit(&spec)
			opts := []conformance.Option{conformance.RunInBubble(), conformance.Waive("WhatCountsAsFailure/ignored", "gobreaker.go:181-183, as in TestConformanceDefaults")}
			for _, w := range tc.want {
				opts = append(opts, conformance.Waive(w, "the Spec is one step off: "+tc.name))
			}
			r := conformance.TestBreaker(t, spec, guard(gobreaker.Settings{}), opts...)
			if r == nil || len(r.Failed()) > 0 || r.Names(conformance.Stale) != nil {
				t.Errorf("a Spec %s: failed %v, stale %v, want %v waived and nothing else", tc.name, r.Failed(), r.Names(conformance.Stale), tc.want)
			}
		})
	}
}
