package conformance

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// labSpecFor is labBreakerSpec with the breaker b and the loop of cmp.
func labSpecFor(b retrytest.Breaker, cmp composition) BreakerSpec {
	s := labBreakerSpec()
	s.Breaker = b
	s.Loop = cmp.loop()
	return s
}

// checkBoth runs the lab of b, cmp and bugs as a Guard and as a client,
// on the fake clock, or in bubbles of t; it returns the two reports.
func checkBoth(t *testing.T, b retrytest.Breaker, cmp composition, bs bugs, bubbles bool) (guard, client *Report) {
	t.Helper()
	spec := labSpecFor(b, cmp)
	var opts []Option
	if bubbles {
		opts = append(opts, inBubbles(t))
	}
	g, err := CheckBreaker(spec, labGuard(b, cmp, bs), opts...)
	if err != nil {
		t.Fatalf("CheckBreaker: %v", err)
	}
	cl, err := CheckBreakerClient(spec, labClient(b, cmp, bs), opts...)
	if err != nil {
		t.Fatalf("CheckBreakerClient: %v", err)
	}
	return g, cl
}

// The breakers the lab is checked as: the lab's default, and one of each
// other kind of trip, half-open instant and open duration.
var labBreakers = []struct {
	name  string
	b     retrytest.Breaker
	alone bool // no loop: the lab's loop outlasts the breaker's OpenFor
}{
	{"consecutive", labBreakerSpec().Breaker, false},
	{"ratio", retrytest.Breaker{Threshold: 3, OutOf: 5, OpenFor: 30 * time.Second, Probes: 1}, false},
	{"rate", retrytest.Breaker{FailureRate: 0.6, MinCalls: 3, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}, false},
	{"interval", retrytest.Breaker{Threshold: 3, Interval: 20 * time.Second, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 3, ProbeSuccesses: 1}, false},
	{"growth", retrytest.Breaker{Threshold: 2, OpenFor: 10 * time.Second, OpenGrowth: 2, OpenMax: 15 * time.Second, Probes: 1}, false},
	// Open for the least a breaker can be: the half-open instant is the
	// trip's next nanosecond, or the one after.
	{"nanosecond", retrytest.Breaker{Threshold: 1, OpenFor: 1, Probes: 1}, true},
	{"nanosecond-after", retrytest.Breaker{Threshold: 2, OpenFor: 1, HalfOpensAfter: true, Probes: 1}, true},
}

// The correct lab passes in every composition, as a Guard and as a
// client, on the fake clock and in bubbles.
func TestCorrectLabBreakerPasses(t *testing.T) {
	for _, lb := range labBreakers {
		for _, cmp := range []composition{plain, inside, outside, outStops} {
			if lb.alone && cmp != plain {
				continue
			}
			t.Run(lb.name+"/"+cmp.String(), func(t *testing.T) {
				spec := labSpecFor(lb.b, cmp)
				t.Run("guard", func(t *testing.T) { TestBreaker(t, spec, labGuard(lb.b, cmp, nil)) })
				t.Run("client", func(t *testing.T) { TestBreakerClient(t, spec, labClient(lb.b, cmp, nil)) })
				t.Run("guard in bubble", func(t *testing.T) { TestBreaker(t, spec, labGuard(lb.b, cmp, nil), RunInBubble()) })
				t.Run("client in bubble", func(t *testing.T) { TestBreakerClient(t, spec, labClient(lb.b, cmp, nil), RunInBubble()) })
			})
		}
	}
}

// Each planted breaker bug fails the case of the property named for it,
// and nothing else, as a Guard and as a client, on the fake clock and in
// bubbles: the seven of issue 33 first.
var plantedBreakerBugs = []struct {
	bug     string
	breaker string      // of labBreakers
	cmp     composition // the lab's composition
	guard   []string    // the cases it fails as a Guard
	client  []string    // and as a client; nil: as a Guard
}{
	{"trips-late", "consecutive", plain, s("TripsWhenDeclared/consecutive"), nil},
	{"probe-storm", "consecutive", plain, s("HalfOpenOnTime/probes"), nil},
	{"open-from-first-failure", "consecutive", plain, s("HalfOpenOnTime/before"), nil},
	{"probe-failure-ignored", "consecutive", plain, s("ProbeOutcome/failure"), nil},
	{"counts-never-reset", "consecutive", plain, s("CountsReset/success"), nil},
	{"404-counted", "consecutive", plain, s("WhatCountsAsFailure/ignored"), s("WhatCountsAsFailure/404")},
	{"hammering", "consecutive", outside, s("RetriesAndBreaker/open"), nil},
	// Half-open 1ns after open + OpenFor where the Spec says at it.
	{"half-opens-late", "consecutive", plain, s("HalfOpenOnTime/at", "HalfOpenOnTime/probes"), nil},
	{"counts-never-reset", "interval", plain, s("CountsReset/success", "CountsReset/interval"), nil},
	{"ratio-as-consecutive", "ratio", plain, s("TripsWhenDeclared/ratio"), nil},
	{"ratio-never-slides", "ratio", plain, s("TripsWhenDeclared/rolling"), nil},
	{"rate-without-min-calls", "rate", plain, s("TripsWhenDeclared/min-calls"), nil},
	// A retry loop inside or outside the breaker: still one property.
	{"trips-late", "consecutive", inside, s("TripsWhenDeclared/consecutive"), nil},
	{"trips-late", "consecutive", outside, s("TripsWhenDeclared/consecutive"), nil},
	{"open-from-first-failure", "consecutive", outStops, s("HalfOpenOnTime/before"), nil},
}

func breakerNamed(t *testing.T, name string) retrytest.Breaker {
	t.Helper()
	for _, lb := range labBreakers {
		if lb.name == name {
			return lb.b
		}
	}
	t.Fatalf("no lab breaker %q", name)
	return retrytest.Breaker{}
}

func TestPlantedBreakerBugs(t *testing.T) {
	for _, tc := range plantedBreakerBugs {
		t.Run(tc.bug+"/"+tc.breaker+"/"+tc.cmp.String(), func(t *testing.T) {
			b := breakerNamed(t, tc.breaker)
			wantClient := tc.client
			if wantClient == nil {
				wantClient = tc.guard
			}
			for _, bubbles := range []bool{false, true} {
				g, cl := checkBoth(t, b, tc.cmp, bugs{tc.bug: true}, bubbles)
				if got := g.Names(Failed); !slices.Equal(got, tc.guard) {
					t.Errorf("guard (bubbles %v) with bug %s: failed %v, want %v\n%s", bubbles, tc.bug, got, tc.guard, g)
				}
				if got := cl.Names(Failed); !slices.Equal(got, wantClient) {
					t.Errorf("client (bubbles %v) with bug %s: failed %v, want %v\n%s", bubbles, tc.bug, got, wantClient, cl)
				}
			}
		})
	}
}

// A BreakerSpec that contradicts itself, or misses what the suite needs,
// is an error naming each field, before anything runs; nothing panics.
func TestBreakerSpecErrors(t *testing.T) {
	good := labBreakerSpec()
	for _, tc := range []struct {
		name string
		edit func(*BreakerSpec)
		want []string
	}{
		{"zero", func(s *BreakerSpec) { *s = BreakerSpec{} }, s("Breaker: Threshold 0: the breaker never opens", "OpenFor 0s", "Probes 0: a half-open breaker that lets no call through never closes", "Err nil")},
		{"threshold 0", func(s *BreakerSpec) { s.Breaker.Threshold = 0 }, s("Threshold 0")},
		{"probes 0", func(s *BreakerSpec) { s.Breaker.Probes = 0 }, s("Probes 0")},
		{"status both", func(s *BreakerSpec) { s.FailureStatuses, s.IgnoredStatuses = []int{503, 404}, []int{404} }, s("status 404 is in both FailureStatuses and IgnoredStatuses")},
		{"status out of range", func(s *BreakerSpec) { s.FailureStatuses = []int{5030} }, s("status 5030, want 100-599")},
		{"success as failure", func(s *BreakerSpec) { s.FailureStatuses = []int{200} }, s("FailureStatuses holds 200, a success")},
		{"ignored is the breaker's", func(s *BreakerSpec) { s.IgnoredErr = errLabOpen }, s("IgnoredErr lab: circuit breaker is open is the breaker's Err")},
		{"loop without attempts", func(s *BreakerSpec) { s.Loop = &BreakerLoop{Policy: retrytest.Policy{First: time.Second}} }, s("Loop.Policy.Attempts 0")},
		{"loop bad policy", func(s *BreakerSpec) {
			s.Loop = &BreakerLoop{Policy: retrytest.Policy{First: -time.Second, Attempts: 2}}
		}, s("Loop.Policy: First -1s")},
		{"threshold too high", func(s *BreakerSpec) { s.Breaker.Threshold = 5000 }, s("Threshold 5000, OutOf 0, MinCalls 0, Probes 2: the suite makes as many calls as they count, want each at most 1000")},
		{"loop too long", func(s *BreakerSpec) { s.Loop = &BreakerLoop{Policy: retrytest.Policy{Attempts: 1 << 40}} }, s("Loop.Policy.Attempts 1099511627776: the suite drives every call to its end, want at most 1000")},
		{"stops inside", func(s *BreakerSpec) { s.Loop = &BreakerLoop{Policy: labLoopPolicy, StopsWhenOpen: true} }, s("Loop.StopsWhenOpen without Loop.Outside")},
		{"loop outlasts open", func(s *BreakerSpec) {
			s.Loop = &BreakerLoop{Policy: retrytest.Policy{First: time.Minute, Attempts: 3}, Outside: true}
		}, s("Loop: its waits last up to 3m in all, not less than Breaker.OpenFor 1m")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := good
			tc.edit(&spec)
			_, err := CheckBreaker(spec, labGuard(spec.Breaker, plain, nil))
			_, cerr := CheckBreakerClient(spec, labClient(spec.Breaker, plain, nil))
			for _, e := range []error{err, cerr} {
				if e == nil {
					t.Fatalf("no error, want one naming %q", tc.want)
				}
				for _, w := range tc.want {
					if !strings.Contains(e.Error(), w) || !strings.HasPrefix(e.Error(), "conformance: the BreakerSpec cannot run: ") {
						t.Errorf("error %q, want it to name %q", e, w)
					}
				}
			}
		})
	}
	if _, err := CheckBreaker(good, nil); err == nil || !strings.Contains(err.Error(), "the adapter is nil") {
		t.Errorf("a nil adapter: %v, want an error", err)
	}
	if _, err := CheckBreaker(good, labGuard(good.Breaker, plain, nil), RunInBubble()); err == nil || !strings.Contains(err.Error(), "RunInBubble needs a *testing.T") {
		t.Errorf("a Check form in a bubble: %v, want the error that says to use the Test form", err)
	}
	if _, err := CheckBreaker(good, labGuard(good.Breaker, plain, nil), Waive("AttemptCount", "no such property")); err == nil || !strings.Contains(err.Error(), "the breaker has no such property, want one of TripsWhenDeclared") {
		t.Errorf("a waiver of a property the breaker suite has not: %v, want an error listing its properties", err)
	}
}

// A waived breaker property still runs: its failure is reported as
// waived, and a waiver of a property that holds is stale.
func TestBreakerWaivers(t *testing.T) {
	spec := labBreakerSpec()
	r, err := CheckBreakerClient(spec, labClient(spec.Breaker, plain, bugs{"404-counted": true}), Waive("WhatCountsAsFailure/404", "the team counts a 404 on purpose"))
	if err != nil || !r.Passed() || !slices.Equal(r.Names(Waived), s("WhatCountsAsFailure/404")) {
		t.Errorf("a waived 404: %v, waived %v, passed %v, want it waived and the run passed\n%s", err, r.Names(Waived), r.Passed(), r)
	}
	r, err = CheckBreakerClient(spec, labClient(spec.Breaker, plain, nil), Waive("ProbeOutcome", "stale"))
	if err != nil || r.Passed() || !slices.Equal(r.Names(Stale), s("ProbeOutcome")) {
		t.Errorf("a waiver of a property that holds: %v, stale %v, want it stale\n%s", err, r.Names(Stale), r)
	}
}

// No BreakerSpec panics: any values are run, or an error that says why.
func FuzzBreakerSpec(f *testing.F) {
	f.Add(5, int64(time.Minute), 2, 503, 404, int64(time.Second), 3, true, true)
	f.Add(0, int64(0), 0, 0, 0, int64(0), 0, false, false)
	f.Fuzz(func(t *testing.T, threshold int, openFor int64, probes, failStatus, ignoredStatus int, first int64, attempts int, outside, stops bool) {
		spec := BreakerSpec{
			Breaker:         retrytest.Breaker{Threshold: threshold, OpenFor: time.Duration(openFor), Probes: probes},
			Err:             errLabOpen,
			FailureStatuses: []int{failStatus},
			IgnoredStatuses: []int{ignoredStatus},
			Loop:            &BreakerLoop{Policy: retrytest.Policy{First: time.Duration(first), Attempts: attempts}, Outside: outside, StopsWhenOpen: stops},
		}
		_, err := CheckBreaker(spec, nil)
		if err == nil {
			t.Fatal("CheckBreaker with a nil adapter returned no error")
		}
	})
}
