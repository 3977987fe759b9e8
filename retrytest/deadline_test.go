package retrytest_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// at builds a schedule of 503s at the given offsets.
func at(offsets ...time.Duration) []retrytest.Attempt {
	out := make([]retrytest.Attempt, len(offsets))
	for i, o := range offsets {
		out[i] = retrytest.Attempt{Index: i + 1, At: o, Result: "503 Service Unavailable"}
		if i > 0 {
			out[i].Delay = o - offsets[i-1]
		}
	}
	return out
}

func TestCheckAbortedAtDeadline(t *testing.T) {
	wrapped := &url.Error{Op: "Get", URL: apiURL, Err: context.DeadlineExceeded}
	early := []retrytest.DeadlineOption{retrytest.AllowGiveUpEarly()}
	for _, tc := range []struct {
		name   string
		got    []retrytest.Attempt
		run    retrytest.DeadlineRun
		golden string // "" when the check passes
		opts   []retrytest.DeadlineOption
	}{
		{"aborted mid-wait", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: wrapped}, "", nil},
		{"aborted mid-call", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 1600 * ms, Returned: 1600 * ms, Err: wrapped}, "", nil},
		{"wait not cut short", at(0, 500*ms, 1500*ms, 3500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 3500 * ms, Err: errors.New("503 Service Unavailable")}, "late_attempt", nil},
		{"gave up early", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 1500 * ms, Err: wrapped}, "early", nil},
		{"wrong error", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: context.Canceled}, "wrong_error", nil},
		{"attempt at the deadline", at(0, 500*ms, 2000*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: wrapped}, "attempt_at_deadline", nil},
		{"gave up early, allowed", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 1500 * ms, Err: errors.New("budget spent")}, "", early},
		{"gave up early without an error", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 1500 * ms}, "early_nil", early},
		{"allowed early, but late", at(0, 500*ms, 1500*ms, 3500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 3500 * ms, Err: errors.New("503 Service Unavailable")}, "late_attempt", early},
		{"still running after a late attempt", at(0, 500*ms, 1500*ms, 3500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 5 * time.Second, Running: true}, "running_late_attempt", nil},
		{"allowed early, at the deadline with another error", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: context.Canceled}, "wrong_error", early},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := retrytest.CheckAbortedAtDeadline(tc.got, tc.run, tc.opts...)
			f := run(func(t retrytest.TestingT) { retrytest.RequireAbortedAtDeadline(t, tc.got, tc.run, tc.opts...) })
			if tc.golden == "" {
				if err != nil || len(f.errors) > 0 || f.failedNow {
					t.Errorf("CheckAbortedAtDeadline = %v, Require reported %q; want a pass", err, f.errors)
				}
				return
			}
			if err == nil {
				t.Fatal("CheckAbortedAtDeadline = nil, want an error")
			}
			if _, ok := errors.AsType[*retrytest.ScheduleError](err); !ok {
				t.Errorf("err is a %T, want a *ScheduleError", err)
			}
			if !f.failedNow || len(f.errors) != 1 || f.errors[0] != err.Error() {
				t.Errorf("RequireAbortedAtDeadline: errors %q, FailNow %v; want the Check text and FailNow", f.errors, f.failedNow)
			}
			golden.Check(t, "harness_deadline_"+tc.golden, err.Error()+"\n")
		})
	}
}

func TestCheckAbortedAtDeadlineInput(t *testing.T) {
	ok := at(0)
	var nilTransport *retrytest.Transport
	var msgs []string
	for _, tc := range []struct {
		got any
		run retrytest.DeadlineRun
	}{
		{ok, retrytest.DeadlineRun{Returned: time.Second, Err: context.DeadlineExceeded}},
		{ok, retrytest.DeadlineRun{Deadline: time.Second, Returned: -time.Second}},
		{nil, retrytest.DeadlineRun{Deadline: time.Second, Returned: time.Second}},
		{nilTransport, retrytest.DeadlineRun{Deadline: time.Second, Returned: time.Second}},
	} {
		err := retrytest.CheckAbortedAtDeadline(tc.got, tc.run)
		if err == nil {
			t.Fatalf("CheckAbortedAtDeadline(%v, %+v) = nil, want an input error", tc.got, tc.run)
		}
		msgs = append(msgs, err.Error())
	}
	golden.Check(t, "harness_deadline_input", strings.Join(msgs, "\n")+"\n")
}

func TestRunWithDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		run := retrytest.RunWithDeadline(context.Background(), 3*time.Second, func(ctx context.Context) error {
			<-ctx.Done()
			return fmt.Errorf("waiting: %w", ctx.Err())
		})
		if run.Deadline != 3*time.Second || run.Returned != 3*time.Second || !errors.Is(run.Err, context.DeadlineExceeded) {
			t.Errorf("RunWithDeadline = %+v, want returned at 3s with DeadlineExceeded", run)
		}
		run = retrytest.RunWithDeadline(t.Context(), time.Second, func(context.Context) error { return nil })
		if run.Returned != 0 || run.Err != nil {
			t.Errorf("RunWithDeadline(instant call) = %+v, want returned at 0s, nil", run)
		}
		for _, tc := range []struct {
			fn   func()
			want string
		}{
			{func() { retrytest.RunWithDeadline(t.Context(), 0, func(context.Context) error { return nil }) }, "retrytest: RunWithDeadline: deadline 0s, want > 0s"},
			{func() { retrytest.RunWithDeadline(t.Context(), time.Second, nil) }, "retrytest: RunWithDeadline: nil call"},
		} {
			if got := panicText(tc.fn); got != tc.want {
				t.Errorf("panic %q, want %q", got, tc.want)
			}
		}
	})
	want := "retrytest: RunWithDeadline: not inside a testing/synctest bubble, where the deadline would pass in real time; " +
		"call it from the function passed to synctest.Test, or use StartWithDeadline on a fake clock"
	if got := panicText(func() {
		retrytest.RunWithDeadline(t.Context(), time.Hour, func(context.Context) error { return nil })
	}); got != want {
		t.Errorf("RunWithDeadline outside a bubble panicked %q, want %q", got, want)
	}
}

// Outside a bubble: the deadline on a fake clock, the run measured on it.
func TestStartWithDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		bug     bool   // the client waits deaf to the context
		failure string // "" when the check passes
	}{
		{"aborted mid-wait", false, ""},
		{"a wait deaf to the deadline", true, "returned at 3.5s, 1.5s after the 2s deadline: the deadline did not interrupt the loop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			tr := retrytest.NewTransport(t, retrytest.Respond(503).Always()).WithClock(clk)
			c := newRetryClient(tr)
			c.clock, c.sleepIgnoresCtx, c.maxAttempts = clk, tc.bug, 4
			call := retrytest.StartWithDeadline(t.Context(), clk, 2*time.Second, func(ctx context.Context) error {
				_, err := c.get(ctx, apiURL)
				return err
			})
			if err := clk.WaitForTimers(t.Context(), 2); err != nil { // the deadline and the first wait
				t.Fatal(err)
			}
			clk.Step(10 * time.Second)
			err := retrytest.CheckAbortedAtDeadline(tr, call.Result())
			if tc.failure == "" {
				if err != nil {
					t.Errorf("CheckAbortedAtDeadline = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.failure) {
				t.Errorf("CheckAbortedAtDeadline = %v, want a failure saying %q", err, tc.failure)
			}
		})
	}
}

// A loop with a budget of its own gives up when its next wait would end
// past it: early, with its own error. The call's context has no deadline
// that could stop the loop in the budget's place.
func TestStartWithBudget(t *testing.T) {
	clk := fakeclock.New(t)
	tr := retrytest.NewTransport(t, retrytest.Respond(503).Always()).WithClock(clk)
	c := newRetryClient(tr)
	c.clock, c.maxAttempts, c.budget = clk, 10, 2*time.Second
	call := retrytest.StartWithBudget(t.Context(), clk, 2*time.Second, func(ctx context.Context) error {
		if d, ok := ctx.Deadline(); ok {
			return fmt.Errorf("the call's context has a deadline %v, want none", d)
		}
		_, err := c.get(ctx, apiURL)
		return err
	})
	if err := clk.WaitForTimers(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	clk.Step(10 * time.Second)
	run := call.Result()
	if want := (retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 1500 * ms, Err: run.Err}); run != want || run.Err == nil {
		t.Fatalf("Result() = %+v, want returned at 1.5s with the client's error", run)
	}
	retrytest.AssertAbortedAtDeadline(t, tr, run, retrytest.AllowGiveUpEarly())
	err := retrytest.CheckAbortedAtDeadline(tr, run)
	if err == nil {
		t.Fatal("CheckAbortedAtDeadline without AllowGiveUpEarly = nil, want the early return caught")
	}
	golden.Check(t, "harness_deadline_gave_up_early", err.Error()+"\n")
}

// A call the deadline did not stop is still running when its run is read.
func TestDeadlineCallStillRunning(t *testing.T) {
	clk := fakeclock.New(t)
	tr := retrytest.NewTransport(t, retrytest.Respond(503).Always()).WithClock(clk)
	release, exited := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release); <-exited }) // before the clock's leak check
	call := retrytest.StartWithDeadline(t.Context(), clk, 2*time.Second, func(context.Context) error {
		defer close(exited)
		for range 2 {
			if _, _, err := send(tr, "GET", apiURL, ""); err != nil {
				return err
			}
			clk.Sleep(time.Second) // deaf to the context
		}
		tm := clk.NewTimer(time.Hour)
		defer tm.Stop()
		select {
		case <-tm.Chan():
		case <-release:
		}
		return nil
	})
	if err := clk.WaitForTimers(t.Context(), 2); err != nil {
		t.Fatal(err)
	}
	clk.Step(time.Second)
	var msgs []string
	for _, advance := range []time.Duration{0, 9 * time.Second} {
		clk.Step(advance)
		run := call.Result()
		if !run.Running {
			t.Fatalf("Result() = %+v, want Running", run)
		}
		err := retrytest.CheckAbortedAtDeadline(tr, run)
		if err == nil {
			t.Fatalf("CheckAbortedAtDeadline(%+v) = nil, want a failure", run)
		}
		msgs = append(msgs, err.Error())
	}
	golden.Check(t, "harness_deadline_running", strings.Join(msgs, "\n")+"\n")
}

func TestDeadlineCallMisuse(t *testing.T) {
	clk := fakeclock.New(t)
	nop := func(context.Context) error { return nil }
	for _, tc := range []struct {
		fn   func()
		want string
	}{
		{func() { retrytest.StartWithDeadline(t.Context(), nil, time.Second, nop) }, "retrytest: StartWithDeadline: nil clock; inside a synctest bubble, use RunWithDeadline"},
		{func() { retrytest.StartWithDeadline(t.Context(), clk, time.Second, nil) }, "retrytest: StartWithDeadline: nil call"},
		{func() { retrytest.StartWithBudget(t.Context(), clk, 0, nop) }, "retrytest: StartWithBudget: budget 0s, want > 0s"},
	} {
		if got := panicText(tc.fn); got != tc.want {
			t.Errorf("panic %q, want %q", got, tc.want)
		}
	}
}
