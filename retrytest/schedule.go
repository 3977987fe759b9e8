package retrytest

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// Schedule is what every check reads: a record of the attempts and waits
// of a retry loop. The recorder, the fake clock, the scripted
// httpscript.Transport, a recorder.Stopwatch and a policy run of package
// policysim are Schedules, each reporting what it saw; [Waits] makes one
// of a plain list of waits.
//
// RetrySchedule is the plumbing the checks call; a test never calls it.
// Its results use only standard types, so that packages below retrytest
// implement it without importing it:
//
//   - attempts: when each attempt began, as an offset from the start of
//     the loop; nil from a source that sees waits only (a clock, a list of
//     waits), whose n waits then read as n+1 attempts, the first
//     immediate;
//   - results: what came of each attempt, for the table ("" when unknown);
//   - waits: the waits after the last attempt, which no attempt followed
//     (every wait, from a source that sees waits only);
//   - untimed: why the offsets mean nothing ("" when they are times), as
//     for a Transport used outside a synctest bubble without a clock: the
//     checks of times then fail with that reason.
type Schedule interface {
	RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string)
}

// Waits returns the Schedule of a loop that waited d[0], d[1], … between
// its attempts: len(d)+1 attempts, the first immediate.
func Waits(d ...time.Duration) Schedule { return waitList(slices.Clone(d)) }

type waitList []time.Duration

func (w waitList) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return nil, nil, w, ""
}

// read reads s for the check name: a nil Schedule, or one whose method
// panics (a nil pointer), is an input error.
func read(name string, s Schedule) (sched schedcheck.Schedule, err error) {
	if s == nil {
		return sched, fmt.Errorf("retrytest: %s: got a nil Schedule, want a recorder, a fake clock, a Transport, a Stopwatch or Waits(...)", name)
	}
	defer func() {
		if r := recover(); r != nil {
			sched, err = schedcheck.Schedule{}, fmt.Errorf("retrytest: %s: %T.RetrySchedule panicked: %v", name, s, r)
		}
	}()
	_, list := s.(waitList)
	typ := ""
	if !list {
		typ = typeName(s)
	}
	return schedcheck.Read(s, !list, typ), nil
}

// typeName names the type of v as a message does: "*fakeclock.Clock".
func typeName(v any) string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer && t.Elem().Name() != "" {
		return "*" + t.Elem().String()
	}
	return t.String()
}

// check runs one schedule check for the function name: it rejects a bad
// expectation (invalid), reads s and returns nil, an input error or a
// *ScheduleError.
func check(name string, s Schedule, invalid error, run func(schedcheck.Schedule) *schedcheck.Report) error {
	if invalid != nil {
		return inputError(name, invalid)
	}
	sched, err := read(name, s)
	if err != nil {
		return err
	}
	if r := run(sched); !r.Passed() {
		return newScheduleError(r)
	}
	return nil
}

func inputError(name string, err error) error {
	var ie *schedcheck.InputError
	if errors.As(err, &ie) {
		return fmt.Errorf("retrytest: %s: %s", name, ie.Detail)
	}
	return fmt.Errorf("retrytest: %s: %w", name, err)
}

// report is the body of every Assert function: it fails t with err, if
// any, and returns whether err was nil.
func report(t TestingT, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%v", err)
		return false
	}
	return true
}
