package retrytest_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// at builds a schedule of 503s at the given offsets.
func at(offsets ...time.Duration) attemptsOnly {
	out := make(attemptsOnly, len(offsets))
	for i, o := range offsets {
		out[i] = recorder.Attempt{Index: i + 1, At: o, Result: "503 Service Unavailable"}
	}
	return out
}

// returnsAt starts a call on clk that returns err after d, and steps clk
// until it has.
func returnsAt(t *testing.T, clk *fakeclock.Clock, d time.Duration, err error) *recorder.Call {
	t.Helper()
	call := recorder.Start(clk, func() error {
		clk.Sleep(d)
		return err
	})
	clk.Step(d)
	if !call.Returned() {
		t.Fatalf("the call did not return at %v", d)
	}
	return call
}

func TestCheckStopped(t *testing.T) {
	wrapped := &url.Error{Op: "Get", URL: apiURL, Err: context.DeadlineExceeded}
	atDeadline := retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded}
	early := retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded, Early: true}
	for _, tc := range []struct {
		name     string
		got      attemptsOnly
		returned time.Duration
		err      error
		want     retrytest.Stop
		golden   string // "" when the check passes
	}{
		{"aborted mid-wait", at(0, 500*ms, 1500*ms), 2 * time.Second, wrapped, atDeadline, ""},
		{"aborted mid-call", at(0, 500*ms, 1500*ms), 1600 * ms, wrapped, retrytest.Stop{At: 1600 * ms, Err: context.DeadlineExceeded}, ""},
		{"wait not cut short", at(0, 500*ms, 1500*ms, 3500*ms), 3500 * ms, errors.New("503 Service Unavailable"), atDeadline, "late_attempt"},
		{"gave up early", at(0, 500*ms, 1500*ms), 1500 * ms, wrapped, atDeadline, "early"},
		{"wrong error", at(0, 500*ms, 1500*ms), 2 * time.Second, context.Canceled, atDeadline, "wrong_error"},
		{"attempt at the stop", at(0, 500*ms, 2000*ms), 2 * time.Second, wrapped, atDeadline, "attempt_at_stop"},
		{"gave up early, allowed", at(0, 500*ms, 1500*ms), 1500 * ms, errors.New("budget spent"), early, ""},
		{"gave up early without an error", at(0, 500*ms, 1500*ms), 1500 * ms, nil, early, "early_nil"},
		{"allowed early, but late", at(0, 500*ms, 1500*ms, 3500*ms), 3500 * ms, errors.New("503 Service Unavailable"), early, "late_attempt"},
		{"allowed early, at the stop with another error", at(0, 500*ms, 1500*ms), 2 * time.Second, context.Canceled, early, "wrong_error"},
		{"canceled mid-wait", at(0, 50*ms), 100 * ms, context.Canceled, retrytest.Stop{At: 100 * ms, Err: context.Canceled}, ""},
		{"canceled, but an attempt after", at(0, 50*ms, 150*ms), 150 * ms, context.Canceled, retrytest.Stop{At: 100 * ms, Err: context.Canceled}, "canceled_late"},
		{"any error at a budget", at(0, 500*ms), time.Second, errors.New("budget spent"), retrytest.Stop{At: time.Second}, ""},
		{"no error at a budget", at(0, 500*ms), time.Second, nil, retrytest.Stop{At: time.Second}, "nil_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call := returnsAt(t, fakeclock.New(t), tc.returned, tc.err)
			err := retrytest.CheckStopped(tc.got, call, tc.want)
			f := run(func(t retrytest.TestingT) { retrytest.AssertStopped(t, tc.got, call, tc.want) })
			if tc.golden == "" {
				if err != nil || len(f.Errors) > 0 {
					t.Errorf("CheckStopped = %v, AssertStopped reported %q; want a pass", err, f.Errors)
				}
				return
			}
			if err == nil {
				t.Fatal("CheckStopped = nil, want an error")
			}
			if _, ok := errors.AsType[*retrytest.ScheduleError](err); !ok {
				t.Errorf("err is a %T, want a *ScheduleError", err)
			}
			if len(f.Errors) != 1 || f.Errors[0] != err.Error() || f.FailedNow {
				t.Errorf("AssertStopped: errors %q, FailNow %v; want the Check text, no FailNow", f.Errors, f.FailedNow)
			}
			golden.Check(t, "harness_stopped_"+tc.golden, err.Error()+"\n")
		})
	}
}

func TestCheckStoppedInput(t *testing.T) {
	call := returnsAt(t, fakeclock.New(t), time.Second, context.DeadlineExceeded)
	var nilTransport *httpscript.Transport
	var msgs []string
	for _, err := range []error{
		retrytest.CheckStopped(at(0), call, retrytest.Stop{}),
		retrytest.CheckStopped(at(0), nil, retrytest.Stop{At: time.Second}),
		retrytest.CheckStopped(nil, call, retrytest.Stop{At: time.Second}),
		retrytest.CheckStopped(nilTransport, call, retrytest.Stop{At: time.Second}),
	} {
		if err == nil {
			t.Fatal("CheckStopped = nil, want an input error")
		}
		msgs = append(msgs, err.Error())
	}
	golden.Check(t, "harness_stopped_input", strings.Join(msgs, "\n")+"\n")
}

// TestStopAtDeadline: a client waits on a fake clock under a 2s deadline
// made on that clock; stepping past the deadline, the check sees it cut
// the wait short, and catches a wait deaf to it.
func TestStopAtDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		bug     bool   // the client waits deaf to the context
		failure string // "" when the check passes
	}{
		{"aborted mid-wait", false, ""},
		{"a wait deaf to the deadline", true, "returned at 3.5s, 1.5s after the stop at 2s: nothing interrupted the loop at the stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := fakeclock.New(t)
			tr := httpscript.NewTransport(t, httpscript.Respond(503).Always()).WithClock(clk)
			c := newRetryClient(tr)
			c.clock, c.sleepIgnoresCtx, c.maxAttempts = clk, tc.bug, 4
			ctx, cancel := clockctx.WithTimeout(t.Context(), clk, 2*time.Second)
			defer cancel()
			call := recorder.Start(clk, func() error {
				_, err := c.get(ctx, apiURL)
				return err
			})
			clk.Step(10 * time.Second)
			err := retrytest.CheckStopped(tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
			if tc.failure == "" {
				if err != nil {
					t.Errorf("CheckStopped = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.failure) {
				t.Errorf("CheckStopped = %v, want a failure saying %q", err, tc.failure)
			}
		})
	}
}

// TestStopAtCancel: canceled at 100ms, mid-wait, the loop returns
// context.Canceled at 100ms and makes no further attempt; a wait deaf to
// the context is caught.
func TestStopAtCancel(t *testing.T) {
	for _, bug := range []bool{false, true} {
		clk := fakeclock.New(t)
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always()).WithClock(clk)
		c := newRetryClient(tr)
		c.clock, c.sleepIgnoresCtx, c.maxAttempts = clk, bug, 3
		ctx, cancel := context.WithCancel(t.Context())
		call := recorder.Start(clk, func() error {
			_, err := c.get(ctx, apiURL)
			return err
		})
		clk.Step(100 * ms)
		cancel()
		clk.Step(0)
		err := retrytest.CheckStopped(tr, call, retrytest.Stop{At: 100 * ms, Err: context.Canceled})
		if !bug {
			if err != nil {
				t.Errorf("CheckStopped(canceled at 100ms) = %v, want nil", err)
			}
			continue
		}
		clk.Step(10 * time.Second)
		err = retrytest.CheckStopped(tr, call, retrytest.Stop{At: 100 * ms, Err: context.Canceled})
		if err == nil || !strings.Contains(err.Error(), "after the stop at 100ms") {
			t.Errorf("CheckStopped(deaf wait) = %v, want the late return caught", err)
		}
	}
}

// A loop with a budget of its own gives up when its next wait would end
// past it: early, with its own error. The call gets no deadline that could
// stop the loop in the budget's place — on a fake clock, and in a bubble.
func TestStopAtBudget(t *testing.T) {
	check := func(t *testing.T, tr *httpscript.Transport, call *recorder.Call) {
		t.Helper()
		if got, want := call.String(), "returned at 1.5s: retry budget of 2s spent after 3 attempts"; got != want {
			t.Errorf("call = %q, want %q", got, want)
		}
		retrytest.AssertStopped(t, tr, call, retrytest.Stop{At: 2 * time.Second, Early: true})
		err := retrytest.CheckStopped(tr, call, retrytest.Stop{At: 2 * time.Second})
		if err == nil {
			t.Fatal("CheckStopped without Early = nil, want the early return caught")
		}
		golden.Check(t, "harness_stopped_gave_up_early", err.Error()+"\n")
	}
	t.Run("fake clock", func(t *testing.T) {
		clk := fakeclock.New(t)
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always()).WithClock(clk)
		c := newRetryClient(tr)
		c.clock, c.maxAttempts, c.budget = clk, 10, 2*time.Second
		call := recorder.Start(clk, func() error {
			_, err := c.get(t.Context(), apiURL)
			return err
		})
		clk.Step(10 * time.Second)
		check(t, tr, call)
	})
	t.Run("bubble", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
			c := newRetryClient(tr)
			c.maxAttempts, c.budget = 10, 2*time.Second
			call := recorder.Start(nil, func() error {
				_, err := c.get(t.Context(), apiURL)
				return err
			})
			bubble.SleepAndWait(10 * time.Second)
			check(t, tr, call)
		})
	})
}

// A call the deadline did not stop is still running when checked.
func TestCallStillRunning(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Always()).WithClock(clk)
	release, exited := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release); <-exited }) // before the clock's leak check
	call := recorder.Start(clk, func() error {
		defer close(exited)
		for range 2 {
			if _, err := tr.Client().Get(apiURL); err != nil {
				return err
			}
			clk.Sleep(time.Second) // deaf to any deadline
		}
		tm := clk.NewTimer(time.Hour)
		defer tm.Stop()
		select {
		case <-tm.Chan():
		case <-release:
		}
		return nil
	})
	clk.Step(time.Second)
	var msgs []string
	for _, advance := range []time.Duration{0, 9 * time.Second} {
		clk.Step(advance)
		if call.Returned() || call.Err() != nil {
			t.Fatalf("call = %v, want running", call)
		}
		err := retrytest.CheckStopped(tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
		if err == nil {
			t.Fatalf("CheckStopped(%v) = nil, want a failure", call)
		}
		msgs = append(msgs, call.String()+"\n"+err.Error())
	}
	golden.Check(t, "harness_stopped_running", strings.Join(msgs, "\n")+"\n")
}
