package policysim_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// seedOld is the incident's policy as seed 000 describes it: 5s doubling
// with up to 5s of jitter added before a 60s cap, min(60s, 5s·2^a +
// uniform(0, 5s)), so that from the fifth retry on every delay is exactly
// 60s. The seed does not give its attempt limit; the incident shows it
// outlasted the two-hour outage, so it is 200 attempts here (about 3h10m
// of retrying).
func seedOld(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	if failed >= 199 {
		return retrytest.Decision{Reason: "exhausted"}
	}
	ceiling := 5 * time.Second << min(failed, 20)
	jitter := time.Duration(rng.Int64N(int64(5*time.Second) + 1))
	return retrytest.Decision{Retry: true, Delay: min(time.Minute, ceiling+jitter), Reason: "backoff"}
}

// decide is the type of Fleet.Decide: a pure policy.
type decide = func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision

// constant retries after d until attempts attempts have been made.
func constant(d time.Duration, attempts int) decide {
	return func(failed int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
		if failed+1 >= attempts {
			return retrytest.Decision{Reason: "exhausted"}
		}
		return retrytest.Decision{Retry: true, Delay: d}
	}
}

func simulate(t *testing.T, f policysim.Fleet) *policysim.Load {
	t.Helper()
	l, err := f.Simulate()
	if err != nil {
		t.Fatalf("Simulate() = %v", err)
	}
	return l
}

func seed000(name string, p decide, seed uint64) policysim.Fleet {
	return policysim.Fleet{Name: name, Jobs: 11000, Outage: 2 * time.Hour, Decide: p, Seed: seed, Capacity: 600}
}

// seed000Old is the old policy's load in seed 000's scenario, simulated
// once per test binary: about 1.4 million policy calls, which -race makes
// slow. Tests only read it.
var seed000Old = sync.OnceValues(seed000("old", seedOld, 7).Simulate)

func oldLoad(t *testing.T) *policysim.Load {
	t.Helper()
	l, err := seed000Old()
	if err != nil {
		t.Fatalf("Simulate() = %v", err)
	}
	return l
}

// TestFleetSeed000 checks seed 000's claims about its simulation (11,000
// jobs failing during a two-hour outage, first failures uniform over it,
// every retry after recovery succeeding) over several seeds.
//
// The old policy puts almost all recoveries in the first minute, far above
// the 600 a minute the endpoint absorbs: that holds. The fixed policy
// spreads them over about an hour with a peak minute of a few hundred:
// that holds too. But the seed's test asserts that peak is below 600, and
// in its own model it is not: about 1.5 jobs a second enter each retry
// level, each level whose ceiling is over a minute (eight of the twelve)
// sends about 90 of its jobs in the first minute after recovery, and the
// shorter levels add about 60, so the first minute receives 650 to 750. Its 12 retries also give up on about 18% of the jobs before the
// endpoint comes back. The test pins both facts so that a change to the
// model shows up here.
func TestFleetSeed000(t *testing.T) {
	// Every job still retrying at recovery is at the 60s cap, so the old
	// policy's result does not depend on the seed; one run is enough.
	old := oldLoad(t)
	if got := old.Buckets[0]; got < old.Fleet.Jobs*99/100 {
		t.Errorf("old policy: %d of %d recoveries in the first minute, want almost all", got, old.Fleet.Jobs)
	}
	if old.GaveUp != 0 || old.Peak < 10*600 || old.DrainTime > time.Minute {
		t.Errorf("old policy: %s, want a peak over 10x 600 in the first minute and no job giving up", old.Summary())
	}
	if policysim.CheckPeakAtMost(old, 600) == nil {
		t.Errorf("CheckPeakAtMost(old, 600) = nil, want a failure")
	}
	for seed := uint64(1); seed <= 3; seed++ {
		fixed := simulate(t, seed000("fixed", seedFixed, seed))
		if fixed.Peak*10 > old.Peak || fixed.DrainTime < 55*time.Minute || fixed.DrainTime > time.Hour {
			t.Errorf("seed %d: fixed policy: %s, want a peak under a tenth of the old one, drained after 55m to 1h", seed, fixed.Summary())
		}
		if fixed.Peak <= 600 || fixed.Peak >= 800 || fixed.PeakBucket != 0 {
			t.Errorf("seed %d: fixed policy: peak %d in bucket %d, want 600 < peak < 800 in bucket 0 (the seed's claim of < 600 does not hold in its model)", seed, fixed.Peak, fixed.PeakBucket)
		}
		if fixed.GaveUp < 1700 || fixed.GaveUp > 2300 {
			t.Errorf("seed %d: fixed policy: %d jobs gave up, want about 2000 (18%%)", seed, fixed.GaveUp)
		}
		for _, l := range []*policysim.Load{old, fixed} {
			if l.Recovered+l.GaveUp != l.Fleet.Jobs || sum(l.Buckets) != l.Recovered {
				t.Errorf("%s: %d recovered + %d gave up, %d requests after recovery, want %d jobs accounted for", l.Summary(), l.Recovered, l.GaveUp, sum(l.Buckets), l.Fleet.Jobs)
			}
		}
	}
}

// TestFleetJitterAfterTheCapSynchronisesABatch is seed 000's step 3 at
// fleet scale: with the intended one-hour cap but jitter added before it,
// jobs that fail together stay together, and all of them arrive in the
// same minute; full jitter under the cap spreads them.
func TestFleetJitterAfterTheCapSynchronisesABatch(t *testing.T) {
	jitterThenCap := func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		if failed >= 12 {
			return retrytest.Decision{Reason: "exhausted"}
		}
		jitter := time.Duration(rng.Int64N(int64(5*time.Second) + 1))
		return retrytest.Decision{Retry: true, Delay: min(time.Hour, 5*time.Second<<failed+jitter)}
	}
	batch := func(p decide) policysim.Fleet {
		return policysim.Fleet{Jobs: 11000, Outage: 3 * time.Hour, AllAtOnce: true, Decide: p, Seed: 1}
	}
	if l := simulate(t, batch(jitterThenCap)); l.Peak != 11000 {
		t.Errorf("jitter then cap: %s, want all 11000 in one minute", l.Summary())
	}
	if l := simulate(t, batch(seedFixed)); l.Peak > 1000 {
		t.Errorf("full jitter: %s, want a peak of at most 1000", l.Summary())
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestFleetModel checks the simulation against loads worked out by hand.
func TestFleetModel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fleet policysim.Fleet
		want  policysim.Load // Fleet is not compared
	}{
		{
			// Attempts at 0, 1m, …, 10m: the eleventh, at recovery, succeeds.
			name:  "retry every minute",
			fleet: policysim.Fleet{Jobs: 7, Outage: 10 * time.Minute, AllAtOnce: true, Decide: constant(time.Minute, 100)},
			want:  policysim.Load{Buckets: []int{7}, Peak: 7, Recovered: 7, Requests: 77, FailedRequests: 70},
		},
		{
			// Attempts at 0, 1m30s, …, 9m: the eighth, at 10m30s, succeeds.
			name:  "retry every 90s",
			fleet: policysim.Fleet{Jobs: 3, Outage: 10 * time.Minute, AllAtOnce: true, Decide: constant(90*time.Second, 100)},
			want:  policysim.Load{Buckets: []int{3}, Peak: 3, DrainTime: 30 * time.Second, Recovered: 3, Requests: 24, FailedRequests: 21},
		},
		{
			name:  "gives up during the outage",
			fleet: policysim.Fleet{Jobs: 5, Outage: 10 * time.Minute, AllAtOnce: true, Decide: constant(time.Minute, 3)},
			want:  policysim.Load{GaveUp: 5, Requests: 15, FailedRequests: 15},
		},
		{
			name:  "no outage",
			fleet: policysim.Fleet{Jobs: 4, Decide: constant(time.Minute, 3)},
			want:  policysim.Load{Buckets: []int{4}, Peak: 4, Recovered: 4, Requests: 4},
		},
		{
			// Attempts at 0, 25s, 50s, 75s: the fourth succeeds in the
			// third 10s bucket.
			name:  "bucket width",
			fleet: policysim.Fleet{Jobs: 2, Outage: time.Minute, AllAtOnce: true, Decide: constant(25*time.Second, 10), Bucket: 10 * time.Second},
			want:  policysim.Load{Buckets: []int{0, 2}, Peak: 2, PeakBucket: 1, DrainTime: 15 * time.Second, Recovered: 2, Requests: 8, FailedRequests: 6},
		},
		{
			// The storm: every bucket over capacity fails all its requests.
			name:  "overload every minute",
			fleet: policysim.Fleet{Jobs: 100, AllAtOnce: true, Decide: constant(time.Minute, 3), Capacity: 50, Overload: true},
			want:  policysim.Load{Buckets: []int{100, 100, 100}, Peak: 100, DrainTime: 2 * time.Minute, GaveUp: 100, Requests: 300, FailedRequests: 300, Overloaded: 3},
		},
		{
			name:  "overload within capacity",
			fleet: policysim.Fleet{Jobs: 100, AllAtOnce: true, Decide: constant(time.Minute, 3), Capacity: 100, Overload: true},
			want:  policysim.Load{Buckets: []int{100}, Peak: 100, Recovered: 100, Requests: 100},
		},
		{
			// Retries that land in the failing bucket fail too.
			name:  "overload retries in the same bucket",
			fleet: policysim.Fleet{Jobs: 100, AllAtOnce: true, Decide: constant(time.Second, 5), Capacity: 50, Overload: true},
			want:  policysim.Load{Buckets: []int{500}, Peak: 500, DrainTime: 4 * time.Second, GaveUp: 100, Requests: 500, FailedRequests: 500, Overloaded: 1},
		},
		{
			// A fleet failing in step never gets through: every minute
			// after recovery receives all of it, one over capacity.
			name:  "outage then overload",
			fleet: policysim.Fleet{Jobs: 80, Outage: time.Minute, AllAtOnce: true, Decide: constant(time.Minute, 5), Capacity: 79, Overload: true},
			want:  policysim.Load{Buckets: []int{80, 80, 80, 80}, Peak: 80, DrainTime: 3 * time.Minute, GaveUp: 80, Requests: 400, FailedRequests: 400, Overloaded: 4},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := simulate(t, tc.fleet)
			got.Fleet = policysim.Fleet{}
			if !equalLoads(got, &tc.want) {
				t.Errorf("Simulate() = %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func equalLoads(a, b *policysim.Load) bool {
	return slices.Equal(a.Buckets, b.Buckets) && a.Peak == b.Peak && a.PeakBucket == b.PeakBucket &&
		a.DrainTime == b.DrainTime && a.Recovered == b.Recovered && a.GaveUp == b.GaveUp &&
		a.Requests == b.Requests && a.FailedRequests == b.FailedRequests && a.Overloaded == b.Overloaded
}

// TestFleetFirstFailuresSpread checks that first failures are uniform over
// the outage: with one retry exactly an outage later, the recoveries are
// spread evenly over the outage's length after recovery.
func TestFleetFirstFailuresSpread(t *testing.T) {
	l := simulate(t, policysim.Fleet{Jobs: 120_000, Outage: 2 * time.Hour, Decide: constant(2*time.Hour, 2), Seed: 3})
	if len(l.Buckets) != 120 {
		t.Fatalf("len(Buckets) = %d, want 120 (recoveries over the 2h after recovery)", len(l.Buckets))
	}
	for k, n := range l.Buckets {
		if n < 850 || n > 1150 { // 1000 expected; the standard deviation is about 32
			t.Errorf("Buckets[%d] = %d, want about 1000", k, n)
		}
	}
}

func TestFleetDeterministic(t *testing.T) {
	for _, overload := range []bool{false, true} {
		f := policysim.Fleet{Jobs: 3000, Outage: time.Hour, Decide: seedFixed, Seed: 11, Capacity: 150, Overload: overload}
		a, b := simulate(t, f), simulate(t, f)
		if !equalLoads(a, b) {
			t.Errorf("Overload %v: two runs of one fleet differ:\n%+v\n%+v", overload, *a, *b)
		}
		f.Seed++
		if c := simulate(t, f); slices.Equal(a.Buckets, c.Buckets) {
			t.Errorf("Overload %v: seeds 11 and 12 give the same buckets %v", overload, a.Buckets)
		}
	}
}

// TestFleetJobsAreIndependent checks that each job draws from its own
// generator: adding a job adds its own request and changes no other.
func TestFleetJobsAreIndependent(t *testing.T) {
	f := policysim.Fleet{Jobs: 500, Outage: time.Hour, Decide: seedFixed, Seed: 5}
	a := simulate(t, f)
	f.Jobs++
	b := simulate(t, f)
	diff := 0
	for k, n := range b.Buckets {
		d := n
		if k < len(a.Buckets) {
			d -= a.Buckets[k]
		}
		if d < 0 {
			t.Fatalf("bucket %d: %d requests with 500 jobs, %d with 501", k, a.Buckets[k], n)
		}
		diff += d
	}
	if diff+b.GaveUp-a.GaveUp != 1 {
		t.Errorf("501 jobs add %d recoveries and %d give-ups to 500 jobs, want one job's worth", diff, b.GaveUp-a.GaveUp)
	}
}

func TestFleetErrors(t *testing.T) {
	valid := func(edit func(*policysim.Fleet)) policysim.Fleet {
		f := policysim.Fleet{Jobs: 10, Outage: time.Hour, Decide: seedFixed}
		edit(&f)
		return f
	}
	forever := func(int, retrytest.Outcome, *rand.Rand) retrytest.Decision { return retrytest.Decision{Retry: true} }
	negative := func(failed int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: true, Delay: time.Duration(failed) - 2*time.Second}
	}
	const prefix = "policysim: Fleet.Simulate: "
	for _, tc := range []struct {
		fleet policysim.Fleet
		want  string
	}{
		{valid(func(f *policysim.Fleet) { f.Decide = nil }), "nil Decide"},
		{valid(func(f *policysim.Fleet) { f.Jobs = 0 }), "Jobs = 0, want > 0"},
		{valid(func(f *policysim.Fleet) { f.Jobs = math.MaxInt32 + 1 }), "Jobs = 2147483648, want at most 2147483647"},
		{valid(func(f *policysim.Fleet) { f.Outage = -time.Second }), "Outage = -1s, want >= 0s"},
		{valid(func(f *policysim.Fleet) { f.Bucket = -time.Minute }), "Bucket = -1m, want > 0s (0 means 1m)"},
		{valid(func(f *policysim.Fleet) { f.Capacity = -1 }), "Capacity = -1, want >= 0"},
		{valid(func(f *policysim.Fleet) { f.Overload = true }), "Overload with Capacity = 0, want the requests per bucket the endpoint absorbs"},
		{valid(func(f *policysim.Fleet) { f.MaxAttempts = -1 }), "MaxAttempts = -1, want 1 to 2147483647 (0 means 10000)"},
		{valid(func(f *policysim.Fleet) { f.Decide = negative }), "job 0: Decide(0) returned the negative delay -2s"},
		{valid(func(f *policysim.Fleet) { f.Decide, f.AllAtOnce = forever, true }), "job 0 still retrying after 10000 attempts (at 0s): the policy must give up eventually, or raise Fleet.MaxAttempts"},
		{valid(func(f *policysim.Fleet) { f.Decide, f.MaxAttempts, f.AllAtOnce = constant(time.Minute, 100), 5, true }),
			"job 0 still retrying after 5 attempts (at 4m): the policy must give up eventually, or raise Fleet.MaxAttempts"},
		{valid(func(f *policysim.Fleet) {
			f.Decide, f.Overload, f.Capacity, f.Outage, f.MaxAttempts = forever, true, 1, 0, 100
		}),
			"job 0 still retrying after 100 attempts (at 0s): the policy must give up eventually, or raise Fleet.MaxAttempts"},
		{valid(func(f *policysim.Fleet) { f.Decide, f.AllAtOnce = constant(3*365*24*time.Hour, 5), true }),
			"job 0: a request at 26279h after recovery is beyond 1048576 buckets of 1m; use a wider Bucket"},
		{valid(func(f *policysim.Fleet) { f.Decide = constant(math.MaxInt64, 5) }),
			"job 0: a request at 2562046h47m16.854775807s after recovery is beyond 1048576 buckets of 1m; use a wider Bucket"},
	} {
		l, err := tc.fleet.Simulate()
		if err == nil || err.Error() != prefix+tc.want {
			t.Errorf("Simulate() = %v, %v\nwant nil, %s%s", l, err, prefix, tc.want)
		}
	}
}

func TestLoadSummary(t *testing.T) {
	for _, tc := range []struct {
		fleet policysim.Fleet
		want  string
	}{
		{policysim.Fleet{Name: "storm", Jobs: 100, AllAtOnce: true, Decide: constant(time.Minute, 3), Capacity: 50, Overload: true},
			"storm: 100 jobs, 0s outage: peak 100 in [0s, 1m) after recovery, drained after 2m, 100 gave up, 3 buckets overloaded"},
		{policysim.Fleet{Jobs: 5, Outage: time.Hour, AllAtOnce: true, Decide: constant(time.Minute, 3)},
			"fleet: 5 jobs, 1h outage: no requests after recovery, 5 gave up"},
		{policysim.Fleet{Jobs: 3, Outage: 10 * time.Minute, AllAtOnce: true, Decide: constant(90*time.Second+400*time.Millisecond, 100)},
			"fleet: 3 jobs, 10m outage: peak 3 in [0s, 1m) after recovery, drained after 33s, 0 gave up"},
	} {
		if got := simulate(t, tc.fleet).Summary(); got != tc.want {
			t.Errorf("Summary() = %q\nwant %q", got, tc.want)
		}
	}
}
