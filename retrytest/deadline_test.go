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
	for _, tc := range []struct {
		name   string
		got    []retrytest.Attempt
		run    retrytest.DeadlineRun
		golden string // "" when the check passes
	}{
		{"aborted mid-wait", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: wrapped}, ""},
		{"aborted mid-call", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 1600 * ms, Returned: 1600 * ms, Err: wrapped}, ""},
		{"wait not cut short", at(0, 500*ms, 1500*ms, 3500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 3500 * ms, Err: errors.New("503 Service Unavailable")}, "late_attempt"},
		{"gave up early", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 1500 * ms, Err: wrapped}, "early"},
		{"wrong error", at(0, 500*ms, 1500*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: context.Canceled}, "wrong_error"},
		{"attempt at the deadline", at(0, 500*ms, 2000*ms), retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: 2 * time.Second, Err: wrapped}, "attempt_at_deadline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := retrytest.CheckAbortedAtDeadline(tc.got, tc.run)
			f := run(func(t retrytest.TestingT) { retrytest.RequireAbortedAtDeadline(t, tc.got, tc.run) })
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
		"call it from the function passed to synctest.Test, or measure a DeadlineRun on a fake clock"
	if got := panicText(func() {
		retrytest.RunWithDeadline(t.Context(), time.Hour, func(context.Context) error { return nil })
	}); got != want {
		t.Errorf("RunWithDeadline outside a bubble panicked %q, want %q", got, want)
	}
}

// Outside a bubble: the deadline on a fake clock, the run measured on it.
func TestAbortedAtDeadlineOnFakeClock(t *testing.T) {
	clk := fakeclock.New(t)
	tr := retrytest.NewTransport(t, retrytest.Respond(503).Always()).WithClock(clk)
	c := newRetryClient(tr)
	c.clock = clk
	ctx, cancel := clk.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := clk.Now()
	done := make(chan retrytest.DeadlineRun, 1)
	go func() {
		_, err := c.get(ctx, apiURL)
		done <- retrytest.DeadlineRun{Deadline: 2 * time.Second, Returned: clk.Since(start), Err: err}
	}()
	if err := clk.WaitForTimers(t.Context(), 2); err != nil { // the deadline and the first wait
		t.Fatal(err)
	}
	if err := clk.AdvanceAndDrain(t.Context(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	retrytest.AssertAbortedAtDeadline(t, tr, <-done)
}
