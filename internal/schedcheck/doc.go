// Package schedcheck is the engine behind retrykit's schedule checks: it
// reads a retry schedule from whatever a test holds, checks it against one
// expectation, and builds the report that every front end prints.
//
// The front ends are thin: package retrytest turns a [Report] into the
// error of a Check function (summary first) and package matchers into a
// Gomega message (summary last). Because both render the same [Report], the
// table and the violations read the same in every form.
//
// # Schedules
//
// A schedule is a list of attempts ([Attempt]) and the waits, if any,
// recorded after the last of them. [Read] reads it from a [Source], the
// method of retrytest.Schedule: attempts with their offsets and results, or
// waits alone (n waits make n+1 attempts, the first immediate). Attempts are
// numbered by position, from 1.
package schedcheck
