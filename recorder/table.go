package recorder

import (
	"fmt"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// String returns a summary line and the recorded schedule as a table, in
// the format every retrykit failure message uses:
//
//	recorder: 3 attempts, 2 delays, total 1.5s
//	  attempt  delay  at     result
//	  1        0s     0s     503 Service Unavailable
//	  2        500ms  500ms  503 Service Unavailable
//	  3        1s     1.5s   ok
//
// Each attempt is a row with the delay before it and its offset. The result
// column appears once a result has been recorded with
// [Recorder.AttemptResult]. Delays recorded after the last attempt (a wait
// that no attempt used, the classic off-by-one of a sleep after the final
// attempt) are summed into one last row whose attempt is "-" and whose
// result says how many delays it holds; the summary line counts them too. A
// recorder without attempts prints one row per delay. The text has no
// trailing spaces and no final newline.
func (r *Recorder) String() string {
	r.mu.Lock()
	attempts := make([]Attempt, len(r.attempts))
	copy(attempts, r.attempts)
	delays := make([]time.Duration, len(r.delays))
	copy(delays, r.delays)
	total, after := r.total, r.delays[r.mark:]
	trailing, pending := len(after), satdur.Sum(after) // the delays after the last attempt
	r.mu.Unlock()

	var b strings.Builder
	fmt.Fprintf(&b, "recorder: %s, %s, total %s",
		schedfmt.Count(len(attempts), "attempt"), schedfmt.Count(len(delays), "delay"), schedfmt.Duration(total))
	if len(attempts) > 0 && trailing > 0 {
		fmt.Fprintf(&b, "; %s (%s) after the last attempt", schedfmt.Count(trailing, "delay"), schedfmt.Duration(pending))
	}
	var rows []schedfmt.Row
	for _, a := range attempts {
		rows = append(rows, schedfmt.AttemptRow(a.Index, a.Delay, a.At, a.Result))
	}
	switch {
	case len(attempts) == 0:
		var at time.Duration
		for _, d := range delays {
			at = satdur.Add(at, d)
			rows = append(rows, schedfmt.Row{Delay: schedfmt.Duration(d), At: schedfmt.Duration(at)})
		}
	case trailing > 0:
		rows = append(rows, schedfmt.Row{
			Delay:  schedfmt.Duration(pending),
			At:     schedfmt.Duration(total),
			Result: "(" + schedfmt.Count(trailing, "delay") + " after the last attempt)",
		})
	}
	if len(rows) > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.TrimSuffix(schedfmt.Table{Rows: rows}.String(), "\n"))
	}
	return b.String()
}

// GomegaString returns the same text as [Recorder.String], so that a Gomega
// failure about a *Recorder prints its schedule rather than its fields.
func (r *Recorder) GomegaString() string {
	return r.String()
}
