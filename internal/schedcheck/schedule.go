package schedcheck

import (
	"fmt"
	"reflect"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// Schedule is a retry schedule read by [Read].
type Schedule struct {
	// Attempts are the attempts in order, renumbered from 1.
	Attempts []recorder.Attempt
	// Count is the number of attempts when got was a bare count; then
	// CountOnly is set and Attempts is nil.
	Count     int
	CountOnly bool
	// Live reports that the schedule came from a provider, which may
	// record more attempts after this snapshot.
	Live bool
}

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

func (e *InputError) Error() string { return e.Detail }

func badArgument(format string, args ...any) error {
	return &InputError{Kind: BadArgument, Detail: fmt.Sprintf(format, args...)}
}

type delaysProvider interface{ Delays() []time.Duration }

type attemptsProvider interface{ Attempts() []recorder.Attempt }

// Read reads a schedule from got: a []time.Duration of waits between
// attempts, a []recorder.Attempt, a value with Attempts() or Delays(), or,
// when countOK is set, an int counting attempts. A value with both methods is
// read through Attempts, unless it has recorded no attempts; then through
// Delays. The slices are copied. Read never panics: a nil or unsupported got,
// a nil provider and a panicking provider are each an [*InputError].
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
	if isA {
		if a := ap.Attempts(); len(a) > 0 || !isD {
			s = fromAttempts(a)
			s.Live = true
			return s, nil
		}
	}
	method = "Delays"
	s = FromDelays(dp.Delays())
	s.Live = true
	return s, nil
}

// FromDelays builds the schedule of len(delays)+1 attempts that waits
// delays[k] before attempt k+2; attempt 1 is immediate.
func FromDelays(delays []time.Duration) Schedule {
	a := make([]recorder.Attempt, len(delays)+1)
	a[0] = recorder.Attempt{Index: 1}
	var at time.Duration
	for k, d := range delays {
		at = addSat(at, d)
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

// addSat adds two durations, saturating instead of wrapping.
func addSat(a, b time.Duration) time.Duration {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return time.Duration(1<<63 - 1)
	case a < 0 && b < 0 && s >= 0:
		return time.Duration(-1 << 63)
	}
	return s
}
