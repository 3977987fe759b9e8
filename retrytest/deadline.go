package retrytest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// DeadlineRun is how a retry loop run under an overall deadline ended, as
// [CheckAbortedAtDeadline] reads it. [RunWithDeadline] measures one inside
// a synctest bubble, and [DeadlineCall.Result] on a fake clock (see
// [StartWithDeadline]); or fill it in yourself from a clock's readings.
type DeadlineRun struct {
	// Deadline is the overall budget, from the start of the call.
	Deadline time.Duration
	// Returned is when the call returned, from its start; while Running,
	// when the run was read.
	Returned time.Duration
	// Err is the error the call returned.
	Err error
	// Running reports that the call had not returned when the run was
	// read: the deadline did not stop the loop (or the clock has not
	// reached it yet).
	Running bool
}

// DeadlineOption changes what [CheckAbortedAtDeadline] accepts.
type DeadlineOption interface {
	applyDeadline(*deadlineOptions)
}

type deadlineOptions struct {
	early bool
}

type deadlineOptionFunc func(*deadlineOptions)

func (f deadlineOptionFunc) applyDeadline(o *deadlineOptions) { f(o) }

// AllowGiveUpEarly accepts a loop that gives up before its deadline, with
// an error of its own, because the next wait would end past the deadline:
// cenkalti/backoff's MaxElapsedTime (v4 and v5) stops that way, sparing a
// wait that no attempt could follow. Without it,
// CheckAbortedAtDeadline wants the loop to wait until the deadline
// interrupts it. A return before the deadline must still carry an error,
// and a return at the deadline must still wrap [context.DeadlineExceeded].
func AllowGiveUpEarly() DeadlineOption {
	return deadlineOptionFunc(func(o *deadlineOptions) { o.early = true })
}

// RunWithDeadline calls call with a child of ctx that ends deadline after
// now, and measures when it returns, on the bubble's clock. It must run
// inside a testing/synctest bubble, where the wait costs no real time:
//
//	synctest.Test(t, func(t *testing.T) {
//		tr := retrytest.NewTransport(t, retrytest.Respond(503).Always())
//		run := retrytest.RunWithDeadline(t.Context(), 2*time.Second, func(ctx context.Context) error {
//			return client.Get(ctx, url) // 500ms, 1s, 2s, 4s between attempts
//		})
//		retrytest.AssertAbortedAtDeadline(t, tr, run) // returned at 2s, mid-wait, with DeadlineExceeded
//	})
//
// It panics if deadline is not positive, and if it is not called from
// inside a bubble, where it would wait in real time.
func RunWithDeadline(ctx context.Context, deadline time.Duration, call func(ctx context.Context) error) DeadlineRun {
	if deadline <= 0 {
		panic("retrytest: RunWithDeadline: deadline " + schedfmt.Duration(deadline) + ", want > 0s")
	}
	if call == nil {
		panic("retrytest: RunWithDeadline: nil call")
	}
	if !InBubble() {
		panic("retrytest: RunWithDeadline: not inside a testing/synctest bubble, where the deadline would pass in real time; " +
			"call it from the function passed to synctest.Test, or use StartWithDeadline on a fake clock")
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	start := time.Now()
	err := call(ctx)
	return DeadlineRun{Deadline: deadline, Returned: time.Since(start), Err: err}
}

// CheckAbortedAtDeadline checks that an overall deadline aborted a retry
// loop mid-wait: that the call returned exactly at run.Deadline — not after
// the wait it was in, and not before — with an error wrapping
// [context.DeadlineExceeded], and that no attempt started at or after the
// deadline. got holds the loop's attempts, read as by [CheckDelays] (the
// Transport, a Stopwatch); their offsets and run's times must count from
// the same instant, the start of the call: make the Transport or Stopwatch
// (or give it its clock) just before the call starts.
//
// A loop that gives up before the deadline because its next wait would
// overshoot it fails the check, unless [AllowGiveUpEarly] is given. A run
// whose call is still Running fails it too.
//
// It returns nil, a *ScheduleError whose table shows the attempts and a
// last "return" row, marking the first attempt after the deadline or else
// the return:
//
//	retrytest: returned at 3.5s, 1.5s after the 2s deadline: attempt 4 started at 3.5s, so the wait before it (2s) was not cut short
//	retrytest: attempt 4 started at 3.5s, at or after the 2s deadline
//	retry schedule under a 2s deadline (4 attempts):
//	    attempt  delay  at     want  result
//	    1        0s     0s     < 2s  503 Service Unavailable
//	    2        500ms  500ms  < 2s  503 Service Unavailable
//	    3        1s     1.5s   < 2s  503 Service Unavailable
//	  > 4        2s     3.5s   < 2s  context deadline exceeded  <-- after the deadline
//	    return   0s     3.5s   2s    context deadline exceeded
//
// A Deadline that is not positive, a negative Returned and input the checks
// cannot read are reported as errors naming the function.
func CheckAbortedAtDeadline(got any, run DeadlineRun, opts ...DeadlineOption) error {
	const name = "CheckAbortedAtDeadline"
	var o deadlineOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyDeadline(&o)
		}
	}
	switch {
	case run.Deadline <= 0:
		return fmt.Errorf("retrytest: %s: Deadline %s, want > 0s", name, schedfmt.Duration(run.Deadline))
	case run.Returned < 0:
		return fmt.Errorf("retrytest: %s: Returned %s, want >= 0s", name, schedfmt.Duration(run.Returned))
	}
	s, err := schedcheck.Read(got, false)
	if err != nil {
		return inputError(name, false, err)
	}
	if s.Untimed != "" {
		return fmt.Errorf("retrytest: %s: cannot check when the attempts happened: %s", name, s.Untimed)
	}
	dl, ret := run.Deadline, run.Returned
	late := -1 // index of the first attempt at or after the deadline
	for i, a := range s.Attempts {
		if a.At >= dl {
			late = i
			break
		}
	}
	var vs []*Violation
	switch {
	case ret > dl:
		state := "returned"
		if run.Running {
			state = "still running"
		}
		msg := fmt.Sprintf("%s at %s, %s after the %s deadline", state, fmtDur(ret), fmtDur(ret-dl), fmtDur(dl))
		switch {
		case late < 0:
			msg += ": the deadline did not interrupt the loop"
		case run.Running:
			msg += fmt.Sprintf(": attempt %d started at %s; the deadline did not stop the loop", s.Attempts[late].Index, fmtDur(s.Attempts[late].At))
		default:
			a := s.Attempts[late]
			msg += fmt.Sprintf(": attempt %d started at %s, so the wait before it (%s) was not cut short", a.Index, fmtDur(a.At), fmtDur(a.Delay))
		}
		vs = append(vs, &Violation{Attempt: late + 1, Message: msg})
	case run.Running:
		vs = append(vs, &Violation{Message: fmt.Sprintf("still running at %s, not past the %s deadline: advance the clock past the deadline before reading the run", fmtDur(ret), fmtDur(dl))})
	case ret < dl && o.early:
		if run.Err == nil {
			vs = append(vs, &Violation{Message: fmt.Sprintf("returned at %s, before the %s deadline, with err = <nil>, want the error it gave up with", fmtDur(ret), fmtDur(dl))})
		}
	case ret < dl:
		msg := fmt.Sprintf("returned at %s, %s before the %s deadline", fmtDur(ret), fmtDur(dl-ret), fmtDur(dl))
		if errors.Is(run.Err, context.DeadlineExceeded) {
			msg += ": it gave up early instead of waiting until the deadline interrupted it"
		} else {
			msg += " (if it gives up because its next wait would end past the deadline, pass AllowGiveUpEarly)"
		}
		vs = append(vs, &Violation{Message: msg})
	}
	if !run.Running && !(ret < dl && o.early) && !errors.Is(run.Err, context.DeadlineExceeded) {
		vs = append(vs, &Violation{Message: fmt.Sprintf("returned err = %s, want an error wrapping context.DeadlineExceeded", errText(run.Err))})
	}
	if late >= 0 {
		for _, a := range s.Attempts[late:] {
			vs = append(vs, &Violation{Attempt: a.Index,
				Message: fmt.Sprintf("attempt %d started at %s, at or after the %s deadline", a.Index, fmtDur(a.At), fmtDur(dl))})
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return &ScheduleError{Violations: vs, Schedule: deadlineTable(s.Attempts, run, late)}
}

// deadlineTable is the schedule under a deadline, with a return row;
// late is the index of the first attempt to mark, or -1 to mark the return.
func deadlineTable(attempts []Attempt, run DeadlineRun, late int) string {
	rows := scheduleRows(attempts)
	var last time.Duration
	for i, a := range attempts {
		rows[i].Want = "< " + fmtDur(run.Deadline)
		if i == late {
			rows[i].Marked, rows[i].Reason = true, "after the deadline"
		}
		last = a.At
	}
	ret := schedfmt.Row{Attempt: "return", Delay: fmtDur(run.Returned - last), At: fmtDur(run.Returned),
		Want: fmtDur(run.Deadline), Result: errText(run.Err)}
	if run.Running {
		ret.Attempt, ret.Result = "running", "(not returned)"
	}
	if late < 0 {
		ret.Marked = true
		switch {
		case run.Running:
			ret.Reason = "still running"
		case run.Returned > run.Deadline:
			ret.Reason = "after the deadline"
		case run.Returned < run.Deadline:
			ret.Reason = "before the deadline"
		default:
			ret.Reason = "want context.DeadlineExceeded"
		}
	}
	rows = append(rows, ret)
	title := fmt.Sprintf("retry schedule under a %s deadline (%s):\n", fmtDur(run.Deadline), schedfmt.Count(len(attempts), "attempt"))
	return title + strings.TrimSuffix(schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts before the deadline"}.String(), "\n")
}

// errText is an error's text for a result cell, "<nil>" for none.
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return cutText(err.Error(), 80)
}

// fmtDur formats d as every retrykit message does.
func fmtDur(d time.Duration) string { return schedfmt.Duration(d) }

// AssertAbortedAtDeadline is [CheckAbortedAtDeadline] reported through
// t.Errorf. It returns whether the check passed.
func AssertAbortedAtDeadline(t TestingT, got any, run DeadlineRun, opts ...DeadlineOption) bool {
	t.Helper()
	return report(t, CheckAbortedAtDeadline(got, run, opts...))
}

// RequireAbortedAtDeadline is [AssertAbortedAtDeadline] followed by
// t.FailNow on failure. It must be called from the goroutine running the
// test.
func RequireAbortedAtDeadline(t TestingT, got any, run DeadlineRun, opts ...DeadlineOption) {
	t.Helper()
	if !AssertAbortedAtDeadline(t, got, run, opts...) {
		t.FailNow()
	}
}
