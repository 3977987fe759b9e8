package policysim_test

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// seedFixedPolicy is seed 000's fixed policy, the base the advisor starts
// from: it fails its own scenario (peak 710 against 600).
var seedFixedPolicy = retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}

// seed000Fleet is seed 000's scenario without a policy, for Advise.
func seed000Fleet(seed uint64) policysim.Fleet {
	return policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Seed: seed, Capacity: 600}
}

// seed000Advice is the advice for seed 000's fixed policy on seed 7 with
// no more jobs given up than the fixed policy (GaveUpAsBase; fleetsim
// holds every policy to 1% of the jobs instead, which on this seed gives
// the same three policies), computed once per test binary. Tests only
// read it.
var seed000Advice = sync.OnceValues(func() (*policysim.Advice, error) {
	return policysim.Advise(seed000Fleet(7), seedFixedPolicy, policysim.Search{MaxGaveUp: policysim.GaveUpAsBase})
})

func advise(t *testing.T, f policysim.Fleet, base retrytest.Policy, s policysim.Search) *policysim.Advice {
	t.Helper()
	a, err := policysim.Advise(f, base, s)
	if err != nil {
		t.Fatalf("Advise() = %v", err)
	}
	return a
}

// TestAdviceHoldsOnOtherSeeds is the advisor's promise: the policies it
// advises for seed 7, with 10% headroom, still keep the endpoint within
// its capacity when the fleet is simulated again with other seeds, and
// give up on no more jobs than the base policy does there.
func TestAdviceHoldsOnOtherSeeds(t *testing.T) {
	advice, err := seed000Advice()
	if err != nil {
		t.Fatal(err)
	}
	if len(advice.Policies) != policysim.DefaultResults {
		t.Fatalf("Advise() gave %d policies, want %d:\n%v", len(advice.Policies), policysim.DefaultResults, advice)
	}
	for _, p := range advice.Policies {
		for _, seed := range []uint64{1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 42} {
			f := seed000Fleet(seed)
			f.Decide = p.Policy.Decide
			l := simulate(t, f)
			f.Decide = seedFixedPolicy.Decide
			base := simulate(t, f)
			if err := policysim.CheckPeakAtMost(l, f.Capacity); err != nil {
				t.Errorf("%v, advised on seed 7, fails on seed %d:\n%v", p.Policy, seed, err)
			}
			if l.GaveUp > base.GaveUp {
				t.Errorf("%v, advised on seed 7, gives up on %d jobs on seed %d, more than the base policy's %d", p.Policy, l.GaveUp, seed, base.GaveUp)
			}
		}
	}
}

// TestAdviceMeetsItsLimits checks every advised policy against the
// limits, its Changed against the fields that differ from the base, and
// the order: fewest changes first, then the shortest drain, no policy
// worse than another on every count.
func TestAdviceMeetsItsLimits(t *testing.T) {
	advice, err := seed000Advice()
	if err != nil {
		t.Fatal(err)
	}
	if advice.Peak != 540 || advice.MaxGaveUp != 2022 || advice.Base.Load.Peak != 710 || advice.Base.Changed != 0 {
		t.Errorf("Advise() limits peak %d, gave up %d, base peak %d changed %v; want 540 (90%% of 600), 2022 (the base's), 710, none",
			advice.Peak, advice.MaxGaveUp, advice.Base.Load.Peak, advice.Base.Changed)
	}
	checkAdvice(t, advice, seedFixedPolicy, 0)
}

func checkAdvice(t *testing.T, advice *policysim.Advice, base retrytest.Policy, keep policysim.Dims) {
	t.Helper()
	for i, p := range advice.Policies {
		l := p.Load
		if l.Peak > advice.Peak || l.GaveUp > advice.MaxGaveUp {
			t.Errorf("policy %d, %v: peak %d, %d gave up, over the limits %d and %d", i+1, p.Policy, l.Peak, l.GaveUp, advice.Peak, advice.MaxGaveUp)
		}
		if got := changed(base, p.Policy); got != p.Changed || p.Changed&keep != 0 {
			t.Errorf("policy %d, %v: Changed %v, want %v, none of %v kept", i+1, p.Policy, p.Changed, got, keep)
		}
		if i == 0 {
			continue
		}
		q := advice.Policies[i-1]
		b := l.Fleet.Bucket
		if q.Changed.Len() > p.Changed.Len() || q.Changed.Len() == p.Changed.Len() && q.Load.DrainTime/b > l.DrainTime/b {
			t.Errorf("policy %d (%v, drained after %v) ranks after policy %d (%v, drained after %v)",
				i+1, p.Changed, l.DrainTime, i, q.Changed, q.Load.DrainTime)
		}
		for j, o := range advice.Policies {
			if o.Changed.Len() <= p.Changed.Len() && o.Load.DrainTime <= l.DrainTime && o.Load.Peak <= l.Peak && o.Load.GaveUp <= l.GaveUp && i != j &&
				(o.Changed.Len() < p.Changed.Len() || o.Load.DrainTime < l.DrainTime || o.Load.Peak < l.Peak || o.Load.GaveUp < l.GaveUp) {
				t.Errorf("policy %d (%v) is worse on every count than policy %d (%v)", i+1, p.Policy, j+1, o.Policy)
			}
		}
	}
}

// changed returns the dimensions in which p differs from base.
func changed(base, p retrytest.Policy) policysim.Dims {
	var d policysim.Dims
	set := func(dim policysim.Dims, differs bool) {
		if differs {
			d |= dim
		}
	}
	set(policysim.DimFirst, p.First != base.First)
	set(policysim.DimGrowth, p.Growth != base.Growth)
	set(policysim.DimCap, p.Cap != base.Cap)
	set(policysim.DimJitter, p.Jitter != base.Jitter || p.JitterFactor != base.JitterFactor || p.JitterAmount != base.JitterAmount || p.CapAfterJitter != base.CapAfterJitter)
	set(policysim.DimAttempts, p.Attempts != base.Attempts)
	if p.FirstExponent != base.FirstExponent || p.OpenTop != base.OpenTop || p.Tolerance != base.Tolerance {
		d |= 1 << 7 // never searched
	}
	return d
}

// TestAdviseKeeps checks that the kept dimensions stay the base's.
func TestAdviseKeeps(t *testing.T) {
	for _, keep := range []policysim.Dims{
		policysim.DimCap | policysim.DimAttempts,
		policysim.DimFirst | policysim.DimCap | policysim.DimAttempts,
		policysim.DimJitter | policysim.DimAttempts,
	} {
		advice := advise(t, seed000Fleet(7), seedFixedPolicy, policysim.Search{Keep: keep, MaxGaveUp: policysim.GaveUpAsBase})
		if len(advice.Policies) == 0 {
			t.Errorf("Keep %v: no policy", keep)
		}
		checkAdvice(t, advice, seedFixedPolicy, keep)
	}
}

// TestAdviseNoChangeNeeded: a base policy that meets the limits is the
// advice, alone, after one simulation.
func TestAdviseNoChangeNeeded(t *testing.T) {
	base := retrytest.Policy{First: 5 * time.Second, Growth: 3, Cap: 2 * time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}
	advice := advise(t, seed000Fleet(7), base, policysim.Search{})
	if len(advice.Policies) != 1 || !reflect.DeepEqual(advice.Policies[0].Policy, base) || advice.Policies[0].Changed != 0 || advice.Simulations != 1 {
		t.Errorf("Advise(passing base) = %v after %d simulations, want the base alone, unchanged, after 1", advice.Policies, advice.Simulations)
	}
	want := "base 5s x3, full jitter under a 2h cap, 13 attempts (12 retries): peak 468, 0 gave up; want a peak of at most 540, at most 0 given up\nno change needed\n"
	if got := advice.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestAdviseNoPolicy: limits that no policy in the search meets give an
// error wrapping ErrNoAdvice that says what was searched and the nearest
// miss, never an empty advice.
func TestAdviseNoPolicy(t *testing.T) {
	for _, tc := range []struct {
		s    policysim.Search
		want string
	}{
		{policysim.Search{Keep: policysim.AllDims &^ policysim.DimAttempts},
			"policysim: Advise: no policy meets the limits: of the policies around the base policy, keeping First+Growth+Cap+Jitter (2 simulations), " +
				"none sends at most 540 requests per 1m and gives up on at most 0 jobs; " +
				"the nearest, 5s doubling, full jitter under a 1h cap, 19 attempts (18 retries): peak 750, 0 gave up"},
		{policysim.Search{Keep: policysim.AllDims},
			"policysim: Advise: no policy meets the limits: of the policies around the base policy, keeping First+Growth+Cap+Jitter+Attempts (1 simulations), " +
				"none sends at most 540 requests per 1m and gives up on at most 0 jobs"},
		{policysim.Search{Keep: policysim.DimJitter | policysim.DimCap | policysim.DimAttempts, Peak: 300},
			"policysim: Advise: no policy meets the limits: of the policies around the base policy, keeping Cap+Jitter+Attempts (40 simulations), " +
				"none sends at most 300 requests per 1m and gives up on at most 0 jobs; " +
				"the nearest, 1m x4, full jitter under a 1h cap, 13 attempts (12 retries): peak 513, 0 gave up"},
	} {
		advice, err := policysim.Advise(seed000Fleet(7), seedFixedPolicy, tc.s)
		if !errors.Is(err, policysim.ErrNoAdvice) || err.Error() != tc.want {
			t.Errorf("Advise(%+v) = %v, error\n%v\nwant\n%s", tc.s, advice, err, tc.want)
		}
	}
}

func TestAdviseBadInput(t *testing.T) {
	fleet := seed000Fleet(7)
	for _, tc := range []struct {
		f    policysim.Fleet
		base retrytest.Policy
		s    policysim.Search
		want string
	}{
		{fleet, retrytest.Policy{First: -time.Second, Attempts: 3}, policysim.Search{}, "policysim: Advise: base: retrytest: Policy: First -1s, want a delay >= 0s"},
		{fleet, retrytest.Policy{Attempts: 3}, policysim.Search{}, "policysim: Advise: base First = 0s, want a delay > 0s to scale"},
		{fleet, retrytest.Policy{First: time.Second}, policysim.Search{}, "policysim: Advise: base Attempts = 0 (no limit), want the attempts the loop makes, to weigh the jobs that give up"},
		{policysim.Fleet{Outage: time.Hour, Capacity: 10}, seedFixedPolicy, policysim.Search{}, "policysim: Advise: policysim: Fleet.Simulate: Jobs = 0, want > 0"},
		{policysim.Fleet{Jobs: 10, Outage: time.Hour}, seedFixedPolicy, policysim.Search{}, "policysim: Advise: Fleet.Capacity = 0, want the requests per bucket the endpoint absorbs"},
		{fleet, seedFixedPolicy, policysim.Search{Keep: 1 << 6}, "policysim: Advise: Search.Keep = Dims(0x40), want a set of the Dim constants"},
		{fleet, seedFixedPolicy, policysim.Search{Peak: 601}, "policysim: Advise: Search.Peak = 601, want 1 to Fleet.Capacity 600 (0 means 540, 10% headroom)"},
		{fleet, seedFixedPolicy, policysim.Search{Peak: -1}, "policysim: Advise: Search.Peak = -1, want 1 to Fleet.Capacity 600 (0 means 540, 10% headroom)"},
		{fleet, seedFixedPolicy, policysim.Search{MaxGaveUp: -2}, "policysim: Advise: Search.MaxGaveUp = -2, want 0 or more jobs, or GaveUpAsBase"},
		{fleet, seedFixedPolicy, policysim.Search{Results: -1}, "policysim: Advise: Search.Results = -1, want 1 or more (0 means 3)"},
		{policysim.Fleet{Jobs: 10, Capacity: 5, MaxAttempts: 5}, seedFixedPolicy, policysim.Search{}, "policysim: Advise: base Attempts = 13, over Fleet.MaxAttempts 5"},
	} {
		advice, err := policysim.Advise(tc.f, tc.base, tc.s)
		if err == nil || err.Error() != tc.want || advice != nil {
			t.Errorf("Advise(%+v, %v, %+v) = %v, %v, want the error %q", tc.f, tc.base, tc.s, advice, err, tc.want)
		}
	}
}

// TestAdviseIsDeterministic runs the search on one processor and on
// several: the advice is the same.
func TestAdviseIsDeterministic(t *testing.T) {
	want, err := seed000Advice()
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	got := advise(t, seed000Fleet(7), seedFixedPolicy, policysim.Search{MaxGaveUp: policysim.GaveUpAsBase})
	if got.String() != want.String() || got.Simulations != want.Simulations {
		t.Errorf("on one processor:\n%v(%d simulations)\nwant\n%v(%d simulations)", got, got.Simulations, want, want.Simulations)
	}
}

// TestAdviseOverload: the advice for an endpoint that falls over above its
// capacity never overloads it.
func TestAdviseOverload(t *testing.T) {
	f := seed000Fleet(7)
	f.Overload, f.AllAtOnce, f.Jobs, f.Outage, f.Capacity = true, true, 2000, 10*time.Minute, 150
	advice := advise(t, f, seedFixedPolicy, policysim.Search{Results: 1})
	for _, p := range advice.Policies {
		if p.Load.Overloaded != 0 || !p.Load.Fleet.Overload {
			t.Errorf("%v: %s, want no bucket overloaded", p.Policy, p.Load.Summary())
		}
	}
	if advice.Base.Load.Overloaded == 0 {
		t.Errorf("base: %s, want buckets overloaded (the scenario is a storm)", advice.Base.Load.Summary())
	}
	checkAdvice(t, advice, seedFixedPolicy, 0)
}

func TestDimsString(t *testing.T) {
	for d, want := range map[policysim.Dims]string{
		0:                                        "none",
		policysim.DimFirst | policysim.DimGrowth: "First+Growth",
		policysim.AllDims:                        "First+Growth+Cap+Jitter+Attempts",
		policysim.DimAttempts | 1<<5 | 1<<7:      "Attempts+Dims(0xa0)",
	} {
		if got := d.String(); got != want {
			t.Errorf("Dims(%#x).String() = %q, want %q", uint8(d), got, want)
		}
	}
	if n := policysim.AllDims.Len(); n != 5 {
		t.Errorf("AllDims.Len() = %d, want 5", n)
	}
}

// An advice prints as a table a test can show when its policy fails.
func TestAdviceString(t *testing.T) {
	advice, err := seed000Advice()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(advice.String(), "\n"), "\n")
	if len(lines) != 1+len(advice.Policies) {
		t.Fatalf("String() has %d lines, want %d:\n%v", len(lines), 1+len(advice.Policies), advice)
	}
	for i, p := range advice.Policies {
		if prefix := fmt.Sprintf("%d. %v: %v: peak %d", i+1, p.Changed, p.Policy, p.Load.Peak); !strings.HasPrefix(lines[i+1], prefix) {
			t.Errorf("line %d = %q, want it to start %q", i+2, lines[i+1], prefix)
		}
	}
}
