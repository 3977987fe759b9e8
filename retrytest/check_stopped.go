package retrytest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/recorder"
)

// Stop says how a retry loop must stop, for [CheckStopped]: at which
// instant, measured from the start of the [recorder.Call], and with which error.
type Stop struct {
	// At is when the call must return: its deadline, its own total budget,
	// or the instant its context was canceled. It must be > 0s.
	At time.Duration
	// Err is what the call's error must wrap (errors.Is):
	// context.DeadlineExceeded, context.Canceled, or the loop's own error
	// for a budget it enforces itself. nil accepts any error but nil.
	Err error
	// Early accepts a loop that gives up before At, with an error of its
	// own, because its next wait would end past At: cenkalti/backoff's
	// MaxElapsedTime stops that way. Without it the loop must wait until
	// At interrupts it.
	Early bool
}

// CheckStopped checks that a retry loop stopped as want says, mid-wait:
// that the call returned exactly at want.At — not after the wait it was
// in, and not before — with an error wrapping want.Err, and that no attempt
// of got began at or after want.At. got holds the loop's attempts (the
// Transport, a Stopwatch, the recorder), counted from the same instant as
// the call: make it, or give it its clock, just before recorder.Start.
//
// It returns nil, a *ScheduleError whose table shows the attempts and a
// last row for the return, marking the first attempt past the stop or
// else the return, or an error for input it cannot check:
//
//	retrytest: returned at 3.5s, 1.5s after the stop at 2s: attempt 4 began at 3.5s, so the wait before it (2s) was not cut short
//	retrytest: attempt 4 began at 3.5s, at or after the stop at 2s
//	retry schedule stopping at 2s (4 attempts):
//	    attempt  delay  at     want  result
//	    1        0s     0s     < 2s  503 Service Unavailable
//	    2        500ms  500ms  < 2s  503 Service Unavailable
//	    3        1s     1.5s   < 2s  503 Service Unavailable
//	  > 4        2s     3.5s   < 2s  context deadline exceeded  <-- after the stop
//	    return   0s     3.5s   2s    context deadline exceeded
func CheckStopped(got Schedule, c *recorder.Call, want Stop) error {
	const name = "CheckStopped"
	switch {
	case c == nil:
		return fmt.Errorf("retrytest: %s: nil *Call, want the Call that recorder.Start returned", name)
	case want.At <= 0:
		return fmt.Errorf("retrytest: %s: Stop.At %s, want > 0s", name, schedfmt.Duration(want.At))
	}
	s, err := read(name, got)
	if err != nil {
		return err
	}
	if s.Untimed != "" {
		return fmt.Errorf("retrytest: %s: cannot check when the attempts happened: %s", name, s.Untimed)
	}
	returned, ret, callErr := c.State()
	at := want.At
	late := -1 // index of the first attempt at or after the stop
	for i, a := range s.Attempts {
		if a.At >= at {
			late = i
			break
		}
	}
	var vs []*Violation
	switch {
	case ret > at:
		state := "returned"
		if !returned {
			state = "still running"
		}
		msg := fmt.Sprintf("%s at %s, %s after the stop at %s", state, fmtDur(ret), fmtDur(ret-at), fmtDur(at))
		switch {
		case late < 0:
			msg += ": nothing interrupted the loop at the stop"
		case !returned:
			msg += fmt.Sprintf(": attempt %d began at %s; the loop did not stop", late+1, fmtDur(s.Attempts[late].At))
		default:
			a := s.Attempts[late]
			msg += fmt.Sprintf(": attempt %d began at %s, so the wait before it (%s) was not cut short", late+1, fmtDur(a.At), fmtDur(a.Delay))
		}
		vs = append(vs, &Violation{Attempt: late + 1, Message: msg})
	case !returned:
		vs = append(vs, &Violation{Message: fmt.Sprintf("still running at %s, not past the stop at %s: step the clock past it before checking", fmtDur(ret), fmtDur(at))})
	case ret < at && want.Early:
		if callErr == nil {
			vs = append(vs, &Violation{Message: fmt.Sprintf("returned at %s, before the stop at %s, with err = <nil>, want the error it gave up with", fmtDur(ret), fmtDur(at))})
		}
	case ret < at:
		msg := fmt.Sprintf("returned at %s, %s before the stop at %s", fmtDur(ret), fmtDur(at-ret), fmtDur(at))
		if want.Err != nil && errors.Is(callErr, want.Err) {
			msg += ": it gave up early instead of waiting until the stop interrupted it"
		} else {
			msg += " (if it gives up because its next wait would end past the stop, set Stop.Early)"
		}
		vs = append(vs, &Violation{Message: msg})
	}
	if returned && !(ret < at && want.Early) {
		switch {
		case want.Err == nil && callErr == nil:
			vs = append(vs, &Violation{Message: "returned err = <nil>, want an error"})
		case want.Err != nil && !errors.Is(callErr, want.Err):
			vs = append(vs, &Violation{Message: fmt.Sprintf("returned err = %s, want an error wrapping %s", schedfmt.ErrCell(callErr), errName(want.Err))})
		}
	}
	if late >= 0 {
		for i, a := range s.Attempts[late:] {
			vs = append(vs, &Violation{Attempt: late + i + 1,
				Message: fmt.Sprintf("attempt %d began at %s, at or after the stop at %s", late+i+1, fmtDur(a.At), fmtDur(at))})
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return &ScheduleError{Violations: vs, Table: stopTable(s, at, returned, ret, callErr, late)}
}

// AssertStopped is [CheckStopped] reported through t.Errorf. It returns
// whether the check passed.
func AssertStopped(t TestingT, got Schedule, c *recorder.Call, want Stop) bool {
	t.Helper()
	return report(t, CheckStopped(got, c, want))
}

// errName names an error the way a Go programmer writes it:
// "context.DeadlineExceeded", or its text in quotes.
func errName(err error) string {
	switch err.Error() {
	case "context deadline exceeded":
		return "context.DeadlineExceeded"
	case "context canceled":
		return "context.Canceled"
	}
	return fmt.Sprintf("%q", err.Error())
}

// stopTable is the schedule with a row for the return; late is the index
// of the first attempt to mark, or -1 to mark the return.
func stopTable(s schedcheck.Schedule, at time.Duration, returned bool, ret time.Duration, err error, late int) string {
	rows := make([]schedfmt.Row, len(s.Attempts))
	var last time.Duration
	for i, a := range s.Attempts {
		rows[i] = schedfmt.AttemptRow(i+1, a.Delay, a.At, a.Result)
		rows[i].Want = "< " + fmtDur(at)
		if i == late {
			rows[i].Marked, rows[i].Reason = true, "after the stop"
		}
		last = a.At
	}
	r := schedfmt.Row{Attempt: "return", Delay: fmtDur(ret - last), At: fmtDur(ret), Want: fmtDur(at), Result: schedfmt.ErrCell(err)}
	if !returned {
		r.Attempt, r.Result = "running", "(not returned)"
	}
	if late < 0 {
		r.Marked = true
		switch {
		case !returned:
			r.Reason = "still running"
		case ret > at:
			r.Reason = "after the stop"
		case ret < at:
			r.Reason = "before the stop"
		default:
			r.Reason = "wrong error"
		}
	}
	rows = append(rows, r)
	title := fmt.Sprintf("retry schedule stopping at %s (%s):\n", fmtDur(at), schedfmt.Count(len(s.Attempts), "attempt"))
	return title + strings.TrimSuffix(schedfmt.Table{Rows: rows, Indent: "  ", FoldNote: "attempts before the stop"}.String(), "\n")
}

// fmtDur formats d as every retrykit message does.
func fmtDur(d time.Duration) string { return schedfmt.Duration(d) }
