package retrytest

import (
	"errors"
	"fmt"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/internal/schedfmt"
)

// accepted lists the types every check reads a schedule from.
const accepted = "[]time.Duration, []retrytest.Attempt, a DelaysProvider or an AttemptsProvider"

// check runs one schedule check for the function name: it rejects a bad
// expectation (invalid), reads got and returns nil, an input error or a
// *ScheduleError.
func check(name string, got any, countOK bool, invalid error, run func(schedcheck.Schedule) *schedcheck.Report) error {
	if invalid != nil {
		return inputError(name, countOK, invalid)
	}
	s, err := schedcheck.Read(got, countOK)
	if err != nil {
		return inputError(name, countOK, err)
	}
	if r := run(s); !r.Passed() {
		return newScheduleError(r)
	}
	return nil
}

func inputError(name string, countOK bool, err error) error {
	var ie *schedcheck.InputError
	if !errors.As(err, &ie) {
		return fmt.Errorf("retrytest: %s: %w", name, err)
	}
	switch ie.Kind {
	case schedcheck.WrongType:
		want := accepted
		if countOK {
			want = "an int, " + want
		}
		return fmt.Errorf("retrytest: %s: %s, want %s", name, ie.Detail, want)
	case schedcheck.NilProvider:
		return fmt.Errorf("retrytest: %s: %s, want a provider that is not nil", name, ie.Detail)
	}
	return fmt.Errorf("retrytest: %s: %s", name, ie.Detail)
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

// scheduleRows are the rows of a schedule table for attempts: number,
// delay, offset and result, with nothing wanted and nothing marked.
func scheduleRows(attempts []Attempt) []schedfmt.Row {
	rows := make([]schedfmt.Row, len(attempts))
	for i, a := range attempts {
		rows[i] = schedfmt.AttemptRow(a.Index, a.Delay, a.At, a.Result)
	}
	return rows
}
