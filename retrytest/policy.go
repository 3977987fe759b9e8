package retrytest

import (
	"math/rand/v2"
	"time"
)

// Decision is what a retry policy decides after a failed attempt: whether
// to try again, after which delay, and why. It mirrors the Decision of a
// pure retry policy (seed 000, step 1), so adapting a team's own decide
// function is one line.
type Decision struct {
	// Retry reports whether another attempt follows.
	Retry bool
	// Delay is the wait before that attempt. It is ignored when Retry is
	// false.
	Delay time.Duration
	// Reason says why, in the policy's own words: "backoff",
	// "retry-after", "permanent", "exhausted".
	Reason string
}

// Policy is a pure retry policy: after the attempt numbered failed has
// failed (failed is 0 for the initial call, 1 for the first retry, …), it
// decides whether to retry and how long to wait, using rng as its only
// source of randomness. It must not read the clock or sleep.
//
// A team's own policy adapts with a closure that fixes the error:
//
//	p := func(failed int, rng *rand.Rand) retrytest.Decision {
//		d := decide(failed, errTransient, rng)
//		return retrytest.Decision{Retry: d.Retry, Delay: d.Delay, Reason: d.Reason}
//	}
type Policy func(failed int, rng *rand.Rand) Decision
