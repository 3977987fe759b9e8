package retrytest

import (
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// Attempt is one attempt of a retry schedule: its 1-based number, its
// offset from the start of the schedule, the delay before it and its
// result. It is the same type as [recorder.Attempt].
type Attempt = recorder.Attempt

// DelaysProvider is anything that records the waits of a retry loop in
// order, such as the fake clock. It records waits, not attempts: the checks
// read n waits as the waits between n+1 attempts, the first immediate, so a
// provider that recorded no wait reads as one attempt, and CheckAttempts
// says so when it fails. The sleep recorder and [PolicyRun] have Delays too,
// but are read through Attempts.
type DelaysProvider interface {
	Delays() []time.Duration
}

// AttemptsProvider is anything that records the attempts of a retry loop,
// with their delays, offsets and results: the sleep recorder, the scripted
// [Transport], a [Stopwatch], a [PolicyRun]. One that recorded no attempt
// made none. If it has a Delays method too, the waits Delays adds up to
// beyond the delays of its attempts were recorded after its last attempt,
// and the checks report them (see "What a check reads" in the package doc).
type AttemptsProvider interface {
	Attempts() []Attempt
}
