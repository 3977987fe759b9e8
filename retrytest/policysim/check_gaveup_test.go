package policysim_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

func gaveUpAtMost(got *policysim.Load, max int) forms {
	return newForms(
		func() error { return policysim.CheckGaveUpAtMost(got, max) },
		func(t retrytest.TestingT) bool { return policysim.AssertGaveUpAtMost(t, got, max) },
	)
}

// MaxGaveUp is the requirement's 1%: 110 of 11,000 jobs, rounded down,
// and exact where floating point is not (29% of 100 is 29 jobs).
func TestMaxGaveUp(t *testing.T) {
	for _, tc := range []struct {
		jobs  int
		share float64
		want  int
	}{
		{11000, policysim.DefaultMaxGaveUpShare, 110},
		{11000, 0.01, 110},
		{100, 0.29, 29},
		{99, 0.01, 0},
		{100, 0.01, 1},
		{11000, 0, 0},
		{11000, 1, 11000},
		{0, 0.01, 0},
	} {
		if got := policysim.MaxGaveUp(tc.jobs, tc.share); got != tc.want {
			t.Errorf("MaxGaveUp(%d, %v) = %d, want %d", tc.jobs, tc.share, got, tc.want)
		}
	}
	for _, bad := range []float64{-0.01, 1.01, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("MaxGaveUp(11000, %v) did not panic", bad)
				}
			}()
			policysim.MaxGaveUp(11000, bad)
		}()
	}
}

// Both sides of the requirement's boundary: 110 of 11,000 jobs given up
// pass, 111 fail, with the count, the share and when they gave up.
func TestCheckGaveUpAtMostBoundary(t *testing.T) {
	load := func(gaveUp, inOutage int) *policysim.Load {
		return &policysim.Load{Fleet: policysim.Fleet{Name: "fixed", Jobs: 11000, Outage: 2 * time.Hour}, GaveUp: gaveUp, GaveUpInOutage: inOutage, Recovered: 11000 - gaveUp}
	}
	if err := gaveUpAtMost(load(110, 110), 110).check(); err != nil {
		t.Errorf("110 of 11000 gave up, at most 110: %v, want nil", err)
	}
	for _, tc := range []struct {
		l    *policysim.Load
		want string
	}{
		{load(111, 111), "policysim: 111 of 11000 jobs (1.0%) gave up, want at most 110\n" +
			"fixed: all 111 gave up before the endpoint recovered: the policy's attempts end before the 2h outage does"},
		{load(111, 0), "policysim: 111 of 11000 jobs (1.0%) gave up, want at most 110\n" +
			"fixed: all 111 gave up after the endpoint recovered, their requests failed by overloaded buckets"},
		{load(2186, 2022), "policysim: 2186 of 11000 jobs (19.9%) gave up, want at most 110\n" +
			"fixed: 2022 gave up before the endpoint recovered (the policy's attempts end before the 2h outage does), 164 after it, their requests failed by overloaded buckets"},
	} {
		f := gaveUpAtMost(tc.l, 110)
		err := f.check()
		ge, ok := errors.AsType[*policysim.GaveUpError](err)
		if !ok || ge.Load != tc.l || ge.Max != 110 || err.Error() != tc.want {
			t.Errorf("CheckGaveUpAtMost(%d gave up, 110) = %#v\n%v\nwant a *GaveUpError\n%s", tc.l.GaveUp, err, err, tc.want)
			continue
		}
		a := run(func(t retrytest.TestingT) { f.assert(t) })
		r := run(f.require)
		if len(a.Errors) != 1 || a.Errors[0] != tc.want || a.FailedNow || len(r.Errors) != 1 || !r.FailedNow || a.Helpers == 0 {
			t.Errorf("assert reported %q (FailNow %v), require %q (FailNow %v), want %q once, FailNow only from require", a.Errors, a.FailedNow, r.Errors, r.FailedNow, tc.want)
		}
	}
}

// The run: every job failing at the start of the two-hour
// outage, the seed's fix gives up on 7,854 of 11,000 (71%), all before
// the endpoint recovers, and fails the check its peak passes.
func TestCheckGaveUpAtMostSeedTogether(t *testing.T) {
	f := seed000("fixed", seedFixed, 7)
	f.AllAtOnce = true
	l := simulate(t, f)
	if err := policysim.CheckPeakAtMost(l, 600); err != nil {
		t.Errorf("CheckPeakAtMost: %v, want a pass (peak 145)", err)
	}
	want := "policysim: 7854 of 11000 jobs (71.4%) gave up, want at most 110\n" +
		"fixed: all 7854 gave up before the endpoint recovered: the policy's attempts end before the 2h outage does"
	if err := policysim.CheckGaveUpAtMost(l, policysim.MaxGaveUp(l.Fleet.Jobs, policysim.DefaultMaxGaveUpShare)); err == nil || err.Error() != want {
		t.Errorf("CheckGaveUpAtMost = %v\nwant\n%s", err, want)
	}
}

func TestCheckGaveUpAtMostInputErrors(t *testing.T) {
	l := simulate(t, policysim.Fleet{Jobs: 1, Decide: constant(time.Minute, 3)})
	for _, tc := range []struct {
		f    forms
		want string
	}{
		{gaveUpAtMost(nil, 110), "policysim: CheckGaveUpAtMost: got a nil *Load"},
		{gaveUpAtMost(l, -1), "policysim: CheckGaveUpAtMost: max -1, want >= 0"},
	} {
		err := tc.f.check()
		if err == nil || err.Error() != tc.want {
			t.Errorf("check = %v, want %s", err, tc.want)
			continue
		}
		if _, ok := errors.AsType[*policysim.GaveUpError](err); ok {
			t.Errorf("check = %T, want a plain error (bad input is not a failed check)", err)
		}
	}
}

// GaveUpInOutage counts the jobs whose policy stopped before recovery:
// all of them without Overload; with it, those that gave up in an
// overloaded bucket are not.
func TestGaveUpInOutage(t *testing.T) {
	l := simulate(t, policysim.Fleet{Jobs: 50, Outage: time.Hour, AllAtOnce: true, Decide: constant(time.Minute, 3)})
	if l.GaveUp != 50 || l.GaveUpInOutage != 50 {
		t.Errorf("3 attempts a minute apart through an hour's outage: %d gave up, %d in the outage; want 50 and 50", l.GaveUp, l.GaveUpInOutage)
	}
	storm := simulate(t, policysim.Fleet{Jobs: 700, Outage: time.Hour, Decide: seedOld, Seed: 7, Capacity: 600, Overload: true})
	if storm.GaveUp == 0 || storm.GaveUpInOutage >= storm.GaveUp {
		t.Errorf("the old policy's storm: %d gave up, %d in the outage; want some after recovery", storm.GaveUp, storm.GaveUpInOutage)
	}
}
