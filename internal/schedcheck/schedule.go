package schedcheck

import (
	"fmt"
	"reflect"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
	"github.com/retrykit/retrykit/recorder"
)

// Schedule is a retry schedule read by [Read].
type Schedule struct {
	// Attempts are the attempts in order, renumbered from 1.
	Attempts []recorder.Attempt
	// Trailing is the wait recorded after the last attempt, which no
	// attempt followed: what a provider with both Delays and Attempts
	// (the sleep recorder) waited beyond the delays of its attempts. It
	// is 0 when there is none, and for every other input.
	Trailing time.Duration
	// Count is the number of attempts when got was a bare count; then
	// CountOnly is set and Attempts is nil.
	Count     int
	CountOnly bool
	// Live reports that the schedule came from a provider, which may
	// record more attempts after this snapshot.
	Live bool
	// WaitsOf is the type of the provider when the schedule was read from
	// its Delays: a provider that records waits, not attempts, whose n
	// waits read as n+1 attempts. It is "" otherwise.
	WaitsOf string
	// Unmarked reports that the provider read through Delays also has an
	// Attempts method, but marked no attempt.
	Unmarked bool
	// Untimed says why the provider recorded the order of its attempts but
	// not their times (see [Untimed]); "" when it timed them. The At and
	// Delay of the attempts are then meaningless: the table leaves them
	// out and every check of times fails.
	Untimed string
}

// trailingRow reports whether the table shows a row for a trailing wait.
func (s Schedule) trailingRow() bool { return s.Trailing > 0 && len(s.Attempts) > 0 }

// Len is the number of attempts.
func (s Schedule) Len() int {
	if s.CountOnly {
		return s.Count
	}
	return len(s.Attempts)
}

// InputKind says what was wrong with an input.
type InputKind int

const (
	// WrongType: got is nil or of a type Read does not accept.
	WrongType InputKind = iota + 1
	// NilProvider: got is a provider held in a nil pointer.
	NilProvider
	// ProviderPanic: the provider's Delays or Attempts method panicked.
	ProviderPanic
	// BadArgument: an expectation is impossible (a window whose Min is
	// after its Max, a negative attempt count).
	BadArgument
)

// InputError reports input a check cannot work with. Front ends reword it
// in their own style; Detail is a lower-case phrase without a prefix.
type InputError struct {
	Kind   InputKind
	Got    any
	Detail string
}

// Error returns Detail.
func (e *InputError) Error() string { return e.Detail }

func badArgument(format string, args ...any) error {
	return &InputError{Kind: BadArgument, Detail: fmt.Sprintf(format, args...)}
}

type delaysProvider interface{ Delays() []time.Duration }

type attemptsProvider interface{ Attempts() []recorder.Attempt }

// Read reads a schedule from got: a []time.Duration of waits between
// attempts, a []recorder.Attempt, a value with Attempts() or Delays(), or,
// when countOK is set, an int counting attempts.
//
// A value with both methods is read through Attempts, and the waits its
// Delays add up to beyond the delays of its attempts are the schedule's
// Trailing wait. If it marked no attempt but recorded waits (a sleep
// recorder used without Attempt), it is read through Delays; if it recorded
// nothing at all, it made no attempt. A value with only Delays records
// waits, not attempts: n waits read as n+1 attempts, so none reads as one.
//
// The slices are copied. Read never panics: a nil or unsupported got, a nil
// provider and a panicking provider are each an [*InputError].
func Read(got any, countOK bool) (s Schedule, err error) {
	switch g := got.(type) {
	case nil:
		return Schedule{}, &InputError{Kind: WrongType, Got: got, Detail: "got nil"}
	case []time.Duration:
		return FromDelays(g), nil
	case []recorder.Attempt:
		return fromAttempts(g), nil
	case int:
		if !countOK {
			break
		}
		if g < 0 {
			return Schedule{}, &InputError{Kind: BadArgument, Got: got, Detail: fmt.Sprintf("got %d attempts: a count cannot be negative", g)}
		}
		return Schedule{Count: g, CountOnly: true}, nil
	}
	ap, isA := got.(attemptsProvider)
	dp, isD := got.(delaysProvider)
	if !isA && !isD {
		return Schedule{}, &InputError{Kind: WrongType, Got: got, Detail: fmt.Sprintf("got %T", got)}
	}
	if isNil(got) {
		return Schedule{}, &InputError{Kind: NilProvider, Got: got, Detail: fmt.Sprintf("got a nil %T", got)}
	}
	method := "Attempts"
	defer func() {
		if r := recover(); r != nil {
			s, err = Schedule{}, &InputError{Kind: ProviderPanic, Got: got, Detail: fmt.Sprintf("%s panicked: %v", methodName(got, method), r)}
		}
	}()
	var attempts []recorder.Attempt
	if isA {
		attempts = ap.Attempts()
		if !isD {
			s = fromAttempts(attempts)
			s.Live = true
			s.Untimed = Untimed(got)
			return s, nil
		}
	}
	method = "Delays"
	delays := dp.Delays()
	switch {
	case len(attempts) > 0:
		s = fromAttempts(attempts)
		s.Trailing = trailing(delays, attempts)
	case isA && len(delays) == 0:
		s = fromAttempts(attempts)
	default:
		s = FromDelays(delays)
		s.WaitsOf, s.Unmarked = fmt.Sprintf("%T", got), isA
	}
	s.Live = true
	s.Untimed = Untimed(got)
	return s, nil
}

// trailing is how much longer delays add up to than the delays of
// attempts: the waits recorded after the last attempt. A provider whose
// sums disagree the other way has no trailing wait.
func trailing(delays []time.Duration, attempts []recorder.Attempt) time.Duration {
	all, used := satdur.Sum(delays), time.Duration(0)
	for _, a := range attempts {
		used = satdur.Add(used, a.Delay)
	}
	if all <= used {
		return 0
	}
	if d := all - used; d > 0 {
		return d
	}
	return time.Duration(1<<63 - 1) // the difference overflowed
}

// FromDelays builds the schedule of len(delays)+1 attempts that waits
// delays[k] before attempt k+2; attempt 1 is immediate.
func FromDelays(delays []time.Duration) Schedule {
	a := make([]recorder.Attempt, len(delays)+1)
	a[0] = recorder.Attempt{Index: 1}
	var at time.Duration
	for k, d := range delays {
		at = satdur.Add(at, d)
		a[k+1] = recorder.Attempt{Index: k + 2, Delay: d, At: at}
	}
	return Schedule{Attempts: a}
}

func fromAttempts(in []recorder.Attempt) Schedule {
	a := make([]recorder.Attempt, len(in))
	copy(a, in)
	for i := range a {
		a[i].Index = i + 1
	}
	return Schedule{Attempts: a}
}

// isNil reports a provider held in a nil pointer. A nil slice or map with
// methods is a fine provider; a method that panics on its nil receiver is
// caught by Read's recover.
func isNil(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

func methodName(v any, m string) string {
	t := fmt.Sprintf("%T", v)
	if len(t) > 0 && t[0] == '*' {
		return "(" + t + ")." + m
	}
	return t + "." + m
}
