package policysim_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// gobreakerDefaults is sony/gobreaker v2's default breaker: the sixth
// consecutive failure opens it for a minute, half-open the instant after,
// one probe.
var gobreakerDefaults = retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}

// Clients without breakers change nothing: each job draws from its own
// generator, so the load is the one of the jobs alone.
func TestClientsWithoutBreakersChangeNothing(t *testing.T) {
	fixed := retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	for _, f := range []policysim.Fleet{seed000("fixed", fixed.Decide, 7), {Jobs: 500, Outage: time.Hour, AllAtOnce: true, Decide: seedOld, Seed: 3}} {
		alone := simulate(t, f)
		f.Clients = 37
		split := simulate(t, f)
		split.Fleet = alone.Fleet
		if !equalLoads(alone, split) || alone.OutageRequests != split.OutageRequests || split.Refused != 0 {
			t.Errorf("%d jobs over 37 clients without breakers:\n got %+v\nwant %+v", f.Jobs, *split, *alone)
		}
		if alone.OutageRequests != alone.FailedRequests {
			t.Errorf("OutageRequests = %d, want every failed request, %d, without Overload", alone.OutageRequests, alone.FailedRequests)
		}
	}
}

// The model by hand: 10 jobs of one client fail at 0 and retry every
// minute through a 10-minute outage. The breaker opens on the third
// failure, at 0, for 5 minutes; at 5m one probe fails and opens it again
// until 10m, when the probe succeeds and every job goes through. Every
// other attempt is refused: 4 requests in the outage instead of 100.
func TestBreakerModel(t *testing.T) {
	b := retrytest.Breaker{Threshold: 3, OpenFor: 5 * time.Minute, Probes: 1}
	f := policysim.Fleet{Jobs: 10, Outage: 10 * time.Minute, AllAtOnce: true, Decide: constant(time.Minute, 100), Clients: 1, Breaker: &b}
	got := simulate(t, f)
	want := policysim.Load{Buckets: []int{10}, Peak: 10, Recovered: 10, Requests: 14, FailedRequests: 4}
	if !equalLoads(got, &want) || got.OutageRequests != 4 || got.Refused != 96 {
		t.Errorf("one client:\n got %+v\nwant %+v, OutageRequests 4, Refused 96", *got, want)
	}
	// Two clients, five jobs each: each breaker opens and probes alone.
	f.Clients = 2
	got = simulate(t, f)
	if got.OutageRequests != 8 || got.Recovered != 10 || got.Refused != 92 {
		t.Errorf("two clients: OutageRequests %d, Recovered %d, Refused %d, want 8, 10, 92", got.OutageRequests, got.Recovered, got.Refused)
	}
	// Half-open 1ns after trip + 5m: the attempts at 5m are refused, the
	// probe at 6m fails and opens it until 11m and 1ns, so those at 11m
	// are refused too, after recovery, and the probe at 12m closes it.
	b.HalfOpensAfter = true
	f.Clients = 1
	got = simulate(t, f)
	if got.OutageRequests != 4 || got.DrainTime != 2*time.Minute || !slices.Equal(got.Buckets, []int{0, 0, 10}) {
		t.Errorf("half-open after the open duration: OutageRequests %d, drained after %v, buckets %v; want 4, 2m, all 10 in the third minute", got.OutageRequests, got.DrainTime, got.Buckets)
	}
	// A breaker whose refusals use the jobs' attempts: 3 attempts a job,
	// all of them in the outage, 3 requests in all.
	f.Decide, b.HalfOpensAfter = constant(time.Minute, 3), false
	got = simulate(t, f)
	if got.GaveUp != 10 || got.GaveUpInOutage != 10 || got.OutageRequests != 3 || got.Refused != 27 {
		t.Errorf("3 attempts a job: GaveUp %d (%d in the outage), OutageRequests %d, Refused %d; want 10 (10), 3, 27", got.GaveUp, got.GaveUpInOutage, got.OutageRequests, got.Refused)
	}
}

func TestFleetClientsInput(t *testing.T) {
	b := gobreakerDefaults
	for _, tc := range []struct {
		f    policysim.Fleet
		want string
	}{
		{policysim.Fleet{Jobs: 10, Decide: constant(time.Second, 3), Breaker: &b}, "a Breaker with Clients = 0"},
		{policysim.Fleet{Jobs: 10, Decide: constant(time.Second, 3), Clients: 11}, "Clients = 11, want 1 to Jobs (10)"},
		{policysim.Fleet{Jobs: 10, Decide: constant(time.Second, 3), Clients: -1}, "Clients = -1"},
		{policysim.Fleet{Jobs: 10, Decide: constant(time.Second, 3), Clients: 2, Breaker: &b, Capacity: 5, Overload: true}, "a Breaker with Overload"},
		{policysim.Fleet{Jobs: 10, Decide: constant(time.Second, 3), Clients: 2, Breaker: &retrytest.Breaker{Threshold: 6, OpenFor: time.Minute}}, "Probes 0"},
	} {
		if _, err := tc.f.Simulate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Simulate() = %v, want an error naming %q", err, tc.want)
		}
	}
}

// Seed 000's outage with sony/gobreaker's defaults in each of 100
// clients: during the outage the requests drop to each client's first six
// failures and a probe a minute; after it, the breakers let the retries
// through as they come.
func TestSeed000WithBreakers(t *testing.T) {
	b := gobreakerDefaults
	fixed := retrytest.Policy{First: 5 * time.Second, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	var lines []string
	for _, p := range []struct {
		name   string
		decide decide
	}{{"old", seedOld}, {"fixed", fixed.Decide}} {
		without := simulate(t, seed000(p.name, p.decide, 7))
		f := seed000(p.name, p.decide, 7)
		f.Clients, f.Breaker = 100, &b
		with := simulate(t, f)
		if again := simulate(t, f); !equalLoads(with, again) || again.OutageRequests != with.OutageRequests || again.Refused != with.Refused {
			t.Errorf("%s: two runs of the same fleet differ", p.name)
		}
		// Each client sends its first six failures, then at most one probe
		// a minute (and 1ns) of the 2h outage.
		if most := 100 * (6 + 120); with.OutageRequests > most || with.OutageRequests >= without.OutageRequests/10 {
			t.Errorf("%s: %d requests during the outage with breakers, %d without; want at most %d", p.name, with.OutageRequests, without.OutageRequests, most)
		}
		lines = append(lines, fmt.Sprintf("%s: during the outage %d without, %d with (%d refused); peak %d without, %d with; gave up %d without, %d with",
			p.name, without.OutageRequests, with.OutageRequests, with.Refused, without.Peak, with.Peak, without.GaveUp, with.GaveUp))
	}
	want := []string{
		"old: during the outage 696423 without, 12015 with (689779 refused); peak 11000 without, 5684 with; gave up 0 without, 0 with",
		"fixed: during the outage 119652 without, 11072 with (108974 refused); peak 710 without, 552 with; gave up 2022 without, 2057 with",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("seed 000 with breakers:\n%s", strings.Join(lines, "\n"))
	}
}
