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
// order: the sleep recorder, the fake clock, the scripted transport. The
// checks read n delays as the waits between n+1 attempts.
type DelaysProvider interface {
	Delays() []time.Duration
}

// AttemptsProvider is anything that records the attempts of a retry loop,
// with their delays, offsets and results.
type AttemptsProvider interface {
	Attempts() []Attempt
}
