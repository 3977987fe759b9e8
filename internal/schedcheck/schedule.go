package schedcheck

import (
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
)

// Source is what every check reads: the method of retrytest.Schedule,
// which the recorder, the fake clock, the scripted transport, a stopwatch
// and a policy run implement, each reporting what it saw of a retry loop.
type Source interface {
	RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string)
}

// Attempt is one attempt of a schedule: its 1-based number, its offset from
// the start of the schedule, the delay before it and its result.
type Attempt struct {
	Index     int
	At, Delay time.Duration
	Result    string
}

// Schedule is a retry schedule read by [Read].
type Schedule struct {
	// Attempts are the attempts in order, numbered from 1.
	Attempts []Attempt
	// Trailing is the sum of the waits recorded after the last attempt,
	// which no attempt followed, and TrailingWaits how many there were (a
	// zero-length wait there counts).
	Trailing      time.Duration
	TrailingWaits int
	// Live reports that the schedule came from a source that may record
	// more attempts after this read.
	Live bool
	// WaitsOf is the type of the source when it reported waits but no
	// attempts, so that its n waits read as n+1 attempts; "" otherwise.
	WaitsOf string
	// Untimed says why the source recorded the order of its attempts but
	// not their times; "" when it timed them. The At and Delay of the
	// attempts are then meaningless: the table leaves them out and every
	// check of times fails.
	Untimed string
	// notes, when set, names the goroutines of the code under test that
	// wait on something other than the source's clock: a report that
	// fails prints them under its table.
	notes func() []string
}

// elsewhere is the method of a fake clock, and of a transport timed on
// one, that names the goroutines of the code under test waiting on
// something other than that clock.
type elsewhere interface{ WaitingElsewhere() []string }

// trailingRow reports whether the table shows a row for a trailing wait.
func (s Schedule) trailingRow() bool { return s.TrailingWaits > 0 && len(s.Attempts) > 0 }

// Len is the number of attempts.
func (s Schedule) Len() int { return len(s.Attempts) }

// Read reads the schedule src reports (see retrytest.Schedule for what
// its four results mean). live says whether src may record more later;
// name is how a message names src's type.
//
// attempts holds when each attempt began: its delay is the gap since the
// attempt before (since the start of the loop, for the first), and waits
// are those recorded after the last attempt. A nil attempts means the
// source sees waits only: n waits read as n+1 attempts, the first
// immediate.
func Read(src Source, live bool, name string) Schedule {
	at, results, waits, untimed := src.RetrySchedule()
	var s Schedule
	if at == nil {
		s = FromDelays(waits)
		s.WaitsOf = name
	} else {
		s.Attempts = make([]Attempt, len(at))
		var prev time.Duration
		for i, a := range at {
			s.Attempts[i] = Attempt{Index: i + 1, At: a, Delay: a - prev}
			if i < len(results) {
				s.Attempts[i].Result = results[i]
			}
			prev = a
		}
		s.Trailing, s.TrailingWaits = satdur.Sum(waits), len(waits)
	}
	s.Live, s.Untimed = live, untimed
	if e, ok := src.(elsewhere); ok {
		s.notes = e.WaitingElsewhere
	}
	return s
}

// FromDelays builds the schedule of len(delays)+1 attempts that waits
// delays[k] before attempt k+2; attempt 1 is immediate.
func FromDelays(delays []time.Duration) Schedule {
	a := make([]Attempt, len(delays)+1)
	a[0] = Attempt{Index: 1}
	var at time.Duration
	for k, d := range delays {
		at = satdur.Add(at, d)
		a[k+1] = Attempt{Index: k + 2, Delay: d, At: at}
	}
	return Schedule{Attempts: a}
}
