package retrytest

import (
	"strings"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// ScheduleError is the error a Check function returns when a schedule
// fails the check. Its text is the whole report: one summary line per
// violation, each starting "retrytest: ", then the schedule as a table with
// the first violation's row marked:
//
//	retrytest: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
//	retry schedule (3 attempts):
//	    attempt  delay  at     want            result
//	    1        0s     0s     0s              503 Service Unavailable
//	    2        100ms  100ms  [50ms, 150ms]   503 Service Unavailable
//	  > 3        450ms  550ms  [200ms, 400ms]  ok  <-- delay 450ms outside [200ms, 400ms]
//
// Use [errors.AsType] to get at the violations, or [errors.Is] and
// [errors.As] through Unwrap.
type ScheduleError struct {
	// Violations lists every problem found, in attempt order. The first
	// one that concerns an attempt is the row marked in Schedule.
	Violations []*Violation
	// Table is the report after the summary: a title line such as
	// "retry schedule (3 attempts):" and the table, or the histogram of a
	// spread check. It is empty when there is nothing to show (an attempt
	// count given as an int).
	Table string
}

// Error returns the summary lines followed by Schedule.
func (e *ScheduleError) Error() string {
	var b strings.Builder
	for i, v := range e.Violations {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("retrytest: ")
		b.WriteString(v.Message)
	}
	if e.Table != "" {
		b.WriteByte('\n')
		b.WriteString(e.Table)
	}
	return b.String()
}

// Unwrap returns the violations, so that errors.As finds a *Violation.
func (e *ScheduleError) Unwrap() []error {
	errs := make([]error, len(e.Violations))
	for i, v := range e.Violations {
		errs[i] = v
	}
	return errs
}

// Violation is one way a schedule failed a check.
type Violation struct {
	// Attempt is the 1-based attempt the violation is about (for a missing
	// or extra attempt, the first one), or 0 when it concerns the schedule
	// as a whole, such as a spread.
	Attempt int
	// Message states the violation on its own, got before want:
	// "attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]".
	Message string
}

// Error returns Message.
func (v *Violation) Error() string { return v.Message }

func newScheduleError(r *schedcheck.Report) *ScheduleError {
	e := &ScheduleError{}
	for _, v := range r.Violations {
		e.Violations = append(e.Violations, &Violation{Attempt: v.Attempt, Message: v.Text})
	}
	if body := r.Body("  ", true); body != "" {
		e.Table = r.Title + ":\n" + strings.TrimSuffix(body, "\n")
	}
	return e
}
