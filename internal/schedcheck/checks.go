package schedcheck

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Window is a range of delays: [Min, Max], or [Min, Max) when Open. It has
// the layout of retrytest.Window, which the checks take as is.
type Window struct {
	Min, Max time.Duration
	Open     bool
}

// window is any type laid out as a Window (retrytest.Window).
type window interface {
	~struct {
		Min, Max time.Duration
		Open     bool
	}
}

// Contains reports whether d is in the window.
func (w Window) Contains(d time.Duration) bool {
	return w.Min <= d && (d < w.Max || !w.Open && d == w.Max)
}

// String formats w as every retrykit message does: "[50ms, 150ms]", or
// "[0s, 1s)" when Open.
func (w Window) String() string {
	if w.Open {
		return schedfmt.HalfOpen(w.Min, w.Max)
	}
	return schedfmt.Window(w.Min, w.Max)
}

// want is w as a schedule table and a message show it: "[50ms, 150ms]",
// or "500ms" for an exact window.
func (w Window) want() string {
	if w.Min == w.Max && !w.Open {
		return dur(w.Min)
	}
	return w.String()
}

// ValidateDelays rejects a negative expected delay.
func ValidateDelays(want []time.Duration) error {
	for i, d := range want {
		if d < 0 {
			return badArgument("want delay %d of %d = %s, want a delay >= 0s", i+1, len(want), dur(d))
		}
	}
	return nil
}

// Delays checks that the waits before attempts 2, 3, … are exactly want and
// that attempt 1 is immediate: [DelaysWithin] over exact windows, each of
// which reads as its one delay.
func Delays(s Schedule, want []time.Duration) *Report {
	ws := make([]Window, len(want))
	for i, d := range want {
		ws[i] = Window{Min: d, Max: d}
	}
	return delaysWithin(s, ws)
}

// ValidateWindows rejects a window that matches nothing: Min after Max,
// or an open window whose Max is not after its Min.
func ValidateWindows[W window](want []W) error {
	for i, ww := range want {
		w := Window(ww)
		switch {
		case w.Min > w.Max:
			return badArgument("window %d of %d is %s, want Min <= Max", i+1, len(want), w)
		case w.Open && w.Min == w.Max:
			return badArgument("window %d of %d is %s, which holds no delay, want Min < Max for an open window", i+1, len(want), w)
		}
	}
	return nil
}

// DelaysWithin checks that the wait before attempt i+2 is within want[i]
// and that attempt 1 is immediate.
func DelaysWithin[W window](s Schedule, in []W) *Report {
	want := make([]Window, len(in))
	for i, w := range in {
		want[i] = Window(w)
	}
	return delaysWithin(s, want)
}

func delaysWithin(s Schedule, want []Window) *Report {
	wantOf := func(i int) string {
		if i == 0 {
			return "0s"
		}
		return want[i-1].want()
	}
	if s.Untimed != "" {
		return untimed(s, len(want)+1, wantOf)
	}
	vs := firstImmediate(s)
	got := len(s.Attempts)
	for i := 1; i < min(got, len(want)+1); i++ {
		d, w := s.Attempts[i].Delay, want[i-1]
		switch {
		case w.Contains(d):
		case w.Min == w.Max && !w.Open:
			vs = append(vs, Violation{
				Attempt: i + 1,
				Text:    fmt.Sprintf("attempt %d of %d: delay = %s, want %s", i+1, got, dur(d), w.want()),
				Reason:  fmt.Sprintf("delay %s, want %s", dur(d), w.want()),
				Final:   true,
			})
		default:
			vs = append(vs, Violation{
				Attempt: i + 1,
				Text:    fmt.Sprintf("attempt %d of %d: delay = %s, want within %s", i+1, got, dur(d), w),
				Reason:  fmt.Sprintf("delay %s outside %s", dur(d), w),
				Final:   true,
			})
		}
	}
	vs = append(vs, tail(s, len(want)+1)...)
	return newScheduleReport(s, len(want)+1, wantOf, vs)
}

// ValidateCount rejects a negative attempt count.
func ValidateCount(want int) error {
	if want < 0 {
		return badArgument("want %d attempts, want a count >= 0", want)
	}
	return nil
}

// Attempts checks the number of attempts. The summary gives retries too,
// since "5 attempts" is "4 retries", and says when the attempts were read
// from a provider's waits.
func Attempts(s Schedule, want int) *Report {
	got := s.Len()
	var vs []Violation
	if got != want {
		text := countText(got, want)
		if s.WaitsOf != "" && got > 0 {
			text += ": " + waitsNote(s)
		}
		vs = append(vs, Violation{
			Attempt: min(got, want) + 1,
			Text:    text,
			Reason:  fmt.Sprintf("got %s, want %d", schedfmt.Count(got, "attempt"), want),
			Final:   got > want,
		})
	}
	vs = inOrder(s, want, vs)
	return newScheduleReport(s, want, nil, vs)
}

// countText states a wrong attempt count, with the retries in parentheses
// where they help: on a side of 2 attempts or more, and on a side of 1
// when the other side has retries to compare with. "got 0 attempts, want
// 1" needs none; "got 4 attempts (3 retries), want 5 (4 retries)" catches
// the off-by-one of counting retries as attempts.
func countText(got, want int) string {
	retries := func(n, other int) string {
		if n >= 2 || n == 1 && other >= 2 {
			return " (" + schedfmt.Count(n-1, "retry") + ")"
		}
		return ""
	}
	return fmt.Sprintf("got %s%s, want %d%s", schedfmt.Count(got, "attempt"), retries(got, want), want, retries(want, got))
}

// waitsNote explains how a schedule read from a provider's waits counts
// its attempts.
func waitsNote(s Schedule) string {
	n := len(s.Attempts) - 1
	return fmt.Sprintf("%s saw waits, not attempts, and its %s read as %s", s.WaitsOf, schedfmt.Count(n, "wait"), schedfmt.Count(n+1, "attempt"))
}

// ValidateOffsets rejects negative or decreasing expected offsets.
func ValidateOffsets(want []time.Duration) error {
	for i, d := range want {
		if d < 0 {
			return badArgument("want offset %d of %d = %s, want an offset >= 0s", i+1, len(want), dur(d))
		}
		if i > 0 && d < want[i-1] {
			return badArgument("want offset %d of %d = %s comes before offset %d = %s, want offsets in order", i+1, len(want), dur(d), i, dur(want[i-1]))
		}
	}
	return nil
}

// AttemptsAt checks that attempt i+1 happened at offset want[i] from the
// start of the schedule.
func AttemptsAt(s Schedule, want []time.Duration) *Report {
	wantOf := func(i int) string { return "at " + dur(want[i]) }
	if s.Untimed != "" {
		return untimed(s, len(want), wantOf)
	}
	var vs []Violation
	got := len(s.Attempts)
	for i := range min(got, len(want)) {
		at, w := s.Attempts[i].At, want[i]
		if at != w {
			vs = append(vs, Violation{
				Attempt: i + 1,
				Text:    fmt.Sprintf("attempt %d of %d: at = %s, want %s", i+1, got, dur(at), dur(w)),
				Reason:  fmt.Sprintf("at %s, want %s", dur(at), dur(w)),
				Final:   true,
			})
		}
	}
	vs = append(vs, tail(s, len(want))...)
	return newScheduleReport(s, len(want), wantOf, vs)
}

// ValidateTotal rejects a negative expected total.
func ValidateTotal(want time.Duration) error {
	if want < 0 {
		return badArgument("want a total delay of %s, want a total >= 0s", dur(want))
	}
	return nil
}

// TotalDelay checks the sum of every delay in the schedule, the wait
// before attempt 1 and the wait after the last attempt included. The last
// row is marked.
func TotalDelay(s Schedule, want time.Duration) *Report {
	if s.Untimed != "" {
		return untimed(s, -1, nil)
	}
	var total time.Duration
	for _, a := range s.Attempts {
		total = satdur.Add(total, a.Delay)
	}
	total = satdur.Add(total, s.Trailing)
	var vs []Violation
	if total != want {
		vs = append(vs, Violation{
			Attempt:  len(s.Attempts),
			Text:     fmt.Sprintf("total delay = %s, want %s", dur(total), dur(want)),
			Reason:   fmt.Sprintf("total delay %s, want %s", dur(total), dur(want)),
			Final:    total > want,
			trailing: s.trailingRow(),
		})
	}
	return newScheduleReport(s, 0, nil, vs)
}

// ValidateCap rejects a cap that is not positive.
func ValidateCap(c time.Duration) error {
	if c <= 0 {
		return badArgument("cap %s, want a cap > 0s", dur(c))
	}
	return nil
}

// CappedAt checks that no delay exceeds c and that some delay reaches it.
// A wait after the last attempt counts as a delay.
func CappedAt(s Schedule, c time.Duration) *Report {
	if s.Untimed != "" {
		return untimed(s, -1, nil)
	}
	var vs []Violation
	got := len(s.Attempts)
	longest, reached := -1, false
	for i, a := range s.Attempts {
		switch {
		case a.Delay > c:
			vs = append(vs, Violation{
				Attempt: i + 1,
				Text:    fmt.Sprintf("attempt %d of %d: delay = %s, want <= %s (the cap)", i+1, got, dur(a.Delay), dur(c)),
				Reason:  fmt.Sprintf("delay %s over the cap %s", dur(a.Delay), dur(c)),
				Final:   true,
			})
		case a.Delay == c:
			reached = true
		}
		if longest < 0 || a.Delay > s.Attempts[longest].Delay {
			longest = i
		}
	}
	if s.trailingRow() {
		switch {
		case s.Trailing > c:
			vs = append(vs, Violation{
				Attempt:  got,
				Text:     fmt.Sprintf("%s after the last attempt (%d of %d), want <= %s (the cap)", waited(s), got, got, dur(c)),
				Reason:   fmt.Sprintf("a wait of %s over the cap %s", dur(s.Trailing), dur(c)),
				Final:    true,
				trailing: true,
			})
		case s.Trailing == c:
			reached = true
		}
	}
	if len(vs) == 0 && !reached {
		v := Violation{Text: fmt.Sprintf("no delay reached the cap %s: got %s and no delays", dur(c), schedfmt.Count(got, "attempt"))}
		if got > 1 {
			l := s.Attempts[longest]
			v = Violation{
				Attempt: longest + 1,
				Text:    fmt.Sprintf("no delay reached the cap %s: the longest is %s (attempt %d of %d)", dur(c), dur(l.Delay), longest+1, got),
				Reason:  fmt.Sprintf("longest delay %s, below the cap %s", dur(l.Delay), dur(c)),
			}
		}
		vs = append(vs, v)
	}
	return newScheduleReport(s, got, func(int) string { return "<= " + dur(c) }, vs)
}
