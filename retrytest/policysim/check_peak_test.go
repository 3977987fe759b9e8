package policysim_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

func peakAtMost(got *policysim.Load, capacity int) forms {
	return newForms(
		func() error { return policysim.CheckPeakAtMost(got, capacity) },
		func(t retrytest.TestingT) bool { return policysim.AssertPeakAtMost(t, got, capacity) },
	)
}

// TestCheckPeakAtMostFailures pins the failure text: the summary, then the
// chart with the capacity line and the peak marked. Both forms, and the
// Assert form followed by FailNow, say the same thing.
func TestCheckPeakAtMostFailures(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fleet    policysim.Fleet
		capacity int
	}{
		{"old", policysim.Fleet{}, 600},
		{"fixed", seed000("fixed", seedFixed, 7), 600},
		{"storm", policysim.Fleet{Name: "storm", Jobs: 700, Outage: time.Hour, Decide: seedOld, Seed: 7, Capacity: 600, Overload: true}, 600},
		{"late_peak", policysim.Fleet{Jobs: 50, Outage: time.Hour, AllAtOnce: true, Decide: constant(65*time.Minute+30*time.Second, 3), Seed: 7}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l *policysim.Load
			if tc.name == "old" {
				l = oldLoad(t)
			} else {
				l = simulate(t, tc.fleet)
			}
			f := peakAtMost(l, tc.capacity)
			err := f.check()
			pe, ok := errors.AsType[*policysim.PeakError](err)
			if !ok || pe.Load != l || pe.Capacity != tc.capacity {
				t.Fatalf("CheckPeakAtMost(load, %d) = %#v, want a *PeakError for this load and capacity", tc.capacity, err)
			}
			msg := err.Error()
			golden.Check(t, "check_peak_"+tc.name, msg+"\n")
			if first := strings.SplitN(msg, "\n", 2)[0]; first != "policysim: "+pe.Summary() {
				t.Errorf("first line = %q, want %q", first, "policysim: "+pe.Summary())
			}
			a := run(func(t retrytest.TestingT) {
				if f.assert(t) {
					t.Errorf("assert returned true")
				}
			})
			if len(a.Errors) != 1 || a.Errors[0] != msg || a.FailedNow || a.Helpers == 0 {
				t.Errorf("assert reported %q (FailNow %v, Helper %d calls), want %q once, no FailNow, Helper called", a.Errors, a.FailedNow, a.Helpers, msg)
			}
			r := run(f.require)
			if len(r.Errors) != 1 || r.Errors[0] != msg || !r.FailedNow || r.Helpers == 0 {
				t.Errorf("require reported %q (FailNow %v, Helper %d calls), want %q once, then FailNow, Helper called", r.Errors, r.FailedNow, r.Helpers, msg)
			}
		})
	}
}

func TestCheckPeakAtMostPasses(t *testing.T) {
	l := simulate(t, policysim.Fleet{Jobs: 100, AllAtOnce: true, Decide: constant(time.Minute, 3)})
	for _, capacity := range []int{100, 101, 1 << 30} {
		f := peakAtMost(l, capacity)
		if err := f.check(); err != nil {
			t.Errorf("CheckPeakAtMost(peak 100, %d) = %v, want nil", capacity, err)
		}
		a := run(func(t retrytest.TestingT) {
			if !f.assert(t) {
				t.Errorf("assert returned false")
			}
		})
		r := run(f.require)
		if len(a.Errors)+len(r.Errors) > 0 || r.FailedNow {
			t.Errorf("assert reported %q, require %q (FailNow %v), want nothing", a.Errors, r.Errors, r.FailedNow)
		}
	}
	// A fleet whose jobs all gave up sends nothing: the peak is 0.
	none := simulate(t, policysim.Fleet{Jobs: 5, Outage: time.Hour, AllAtOnce: true, Decide: constant(time.Minute, 3)})
	if err := policysim.CheckPeakAtMost(none, 0); err != nil {
		t.Errorf("CheckPeakAtMost(no requests, 0) = %v, want nil", err)
	}
	if got := peakAtMost(l, 99).check(); got == nil {
		t.Errorf("CheckPeakAtMost(peak 100, 99) = nil, want a failure")
	}
}

func TestCheckPeakAtMostInputErrors(t *testing.T) {
	l := simulate(t, policysim.Fleet{Jobs: 1, Decide: constant(time.Minute, 3)})
	for _, tc := range []struct {
		f    forms
		want string
	}{
		{peakAtMost(nil, 600), "policysim: CheckPeakAtMost: got a nil *Load"},
		{peakAtMost(l, -1), "policysim: CheckPeakAtMost: capacity -1, want >= 0"},
	} {
		err := tc.f.check()
		if err == nil || err.Error() != tc.want {
			t.Errorf("check = %v, want %s", err, tc.want)
			continue
		}
		if _, ok := errors.AsType[*policysim.PeakError](err); ok {
			t.Errorf("check = %T, want a plain error (bad input is not a failed check)", err)
		}
		a := run(func(t retrytest.TestingT) { tc.f.assert(t) })
		r := run(tc.f.require)
		if len(a.Errors) != 1 || a.Errors[0] != tc.want || len(r.Errors) != 1 || r.Errors[0] != tc.want || !r.FailedNow {
			t.Errorf("assert reported %q, require %q (FailNow %v), want %q from each and FailNow", a.Errors, r.Errors, r.FailedNow, tc.want)
		}
	}
}
