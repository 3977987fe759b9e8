package recorder

import "time"

// Attempt is one attempt of a retry schedule. It is the row type of every
// schedule in retrykit: the recorder, the scripted transport and the policy
// runner all report attempts in this form, and the checks and matchers read
// it.
type Attempt struct {
	// Index is the 1-based number of the attempt: attempt 1 is the initial
	// call, so a schedule of n attempts made n-1 retries.
	Index int
	// At is the offset of the attempt from the start of the schedule, in
	// virtual time: the sum of every delay recorded before it. Sums
	// saturate at the largest Duration instead of wrapping, so a huge wait
	// (retryafter.Forever) followed by another never makes At negative.
	At time.Duration
	// Delay is the wait recorded between the previous attempt and this
	// one (the sum, if several waits were recorded in between). It is 0 for
	// the first attempt unless something waited before it.
	Delay time.Duration
	// Result is what the attempt returned, as the schedule table prints
	// it: "ok", an error's text, or an HTTP status (which the scripted
	// transport follows with the wait the reply asked for: "429 Too Many
	// Requests, Retry-After: 7 (asks to wait 7s)"). Empty when unknown.
	Result string
}
