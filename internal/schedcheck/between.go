package schedcheck

import (
	"fmt"
	"slices"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// ValidateBetween rejects a span of instants that holds none: a negative
// start, or an end not after the start.
func ValidateBetween(from, to time.Duration) error {
	switch {
	case from < 0:
		return badArgument("from %s, want an offset >= 0s", dur(from))
	case to <= from:
		return badArgument("[%s, %s) holds no instant, want from < to", dur(from), dur(to))
	}
	return nil
}

// NoAttemptsBetween checks that no attempt began at an offset in [from,
// to): the silence of an open circuit breaker, from just after the
// request that opened it until it half-opens. The table shows every
// attempt with the span's two edges as rows of their own, and marks the
// first attempt inside it.
func NoAttemptsBetween(s Schedule, from, to time.Duration) *Report {
	if s.Untimed != "" {
		return untimed(s, -1, nil)
	}
	span := schedfmt.HalfOpen(from, to)
	var inside []int // 0-based attempts in the span
	for i, a := range s.Attempts {
		if a.At >= from && a.At < to {
			inside = append(inside, i)
		}
	}
	got := len(s.Attempts)
	var vs []Violation
	if len(inside) > 0 {
		first := s.Attempts[inside[0]]
		text := fmt.Sprintf("attempt %d of %d at %s is in %s, want no attempt there", first.Index, got, dur(first.At), span)
		if n := len(inside); n > 1 {
			last := s.Attempts[inside[n-1]]
			text = fmt.Sprintf("%s in %s, want none: attempts %d to %d of %d, from %s to %s",
				schedfmt.Count(n, "attempt"), span, first.Index, last.Index, got, dur(first.At), dur(last.At))
		}
		vs = append(vs, Violation{Attempt: first.Index, Text: text, Reason: "in " + span + ", want none", Final: true})
	}
	r := &Report{Live: s.Live, Violations: vs}
	r.Title = "retry schedule (" + schedfmt.Count(got, "attempt")
	if s.trailingRow() {
		r.Title += ", then " + waitPhrase(s)
	}
	r.Title += ")"
	type timed struct {
		at  time.Duration
		row schedfmt.Row
		n   int // the attempt's number; 0 for other rows
	}
	var rows []timed
	for i, a := range s.Attempts {
		row := schedfmt.AttemptRow(i+1, a.Delay, a.At, a.Result)
		if slices.Contains(inside, i) {
			row.Want = "none"
		}
		rows = append(rows, timed{a.At, row, i + 1})
	}
	if s.trailingRow() {
		end := satdur.Add(s.Attempts[got-1].At, s.Trailing)
		rows = append(rows, timed{end, schedfmt.Row{Attempt: "-", Delay: dur(s.Trailing), At: dur(end), Result: "(wait after the last attempt)"}, 0})
	}
	// The edges go before the first row at or after them: an attempt at
	// from is inside, one at to is not.
	edge := func(at time.Duration, result string) {
		k := slices.IndexFunc(rows, func(r timed) bool { return r.at >= at })
		if k < 0 {
			k = len(rows)
		}
		rows = slices.Insert(rows, k, timed{at, schedfmt.Row{Attempt: "-", At: dur(at), Result: result}, 0})
	}
	edge(from, "(from here, no attempt wanted)")
	edge(to, "(until here)")
	r.rows = make([]schedfmt.Row, len(rows))
	for i, t := range rows {
		r.rows[i] = t.row
		if len(vs) > 0 && t.n == vs[0].Attempt {
			r.Violations[0].row = i + 1
			r.rows[i].Reason = vs[0].Reason
		}
	}
	return r.withNotes(s)
}
