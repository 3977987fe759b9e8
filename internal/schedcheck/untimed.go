package schedcheck

// untimed is the report of a check of times over a schedule whose attempts
// were not timed: one violation that asks for a clock, then, when the
// check also counts attempts (n >= 0), a count of the wrong length. The
// table shows the order of the attempts, what was wanted of each (want
// may be nil) and their results.
func untimed(s Schedule, n int, want func(i int) string) *Report {
	vs := []Violation{{
		Text:  "cannot check when the attempts happened: " + s.Untimed,
		Final: true,
	}}
	if n >= 0 {
		vs = append(vs, countMismatch(s, n)...)
	}
	return newScheduleReport(s, max(n, 0), want, vs)
}
