// Package gobreaker is the recipe for testing a circuit breaker built on
// [github.com/sony/gobreaker/v2] (v2.4.0), the most used Go breaker, with
// retrykit: its whole contract through conformance.TestBreaker, and the
// seed's promise that an open breaker sends nothing, counted at the
// transport.
//
// # The seam
//
// gobreaker takes no clock: it reads time.Now when it is made, before
// and after every request (gobreaker.go:169, 199, 241, 257). So the test
// runs it inside a testing/synctest bubble (conformance.RunInBubble),
// where time is fake and moves only when every goroutine waits, and builds
// it there: a breaker made outside the bubble would count its time from a
// real instant. On the suite's fake clock instead, no time passes for it
// and it never half-opens.
//
// # What its defaults are, from its source
//
// gobreaker.Settings{} means, in gobreaker.go and counter.go:
//
//   - ReadyToTrip: counts.ConsecutiveFailures > 5 (:177-179), so the sixth
//     consecutive failure opens it; a success resets the count
//     (counter.go:20-24);
//   - IsSuccessful: err == nil (:181-183), so every error is a failure: a
//     canceled context too (the sixth canceled call opens it), and a
//     not-found your operation returns as an error;
//   - Interval 0 (:129-131, :174): a closed breaker's counts never reset
//     on a timer;
//   - Timeout 60s (:145-149, :175): open for a minute, and half-open only
//     when expiry.Before(now) (:313), the first instant after trip+60s;
//   - MaxRequests 1 (:122-126): one probe, and a call beyond it
//     ErrTooManyRequests (:246-247); MaxRequests consecutive successful
//     probes close it (:280-283), one failure opens it again (:295-296),
//     for the full Timeout (:362).
//
// The tests declare exactly that as a conformance.BreakerSpec, and a
// custom breaker — the failure-rate ReadyToTrip of gobreaker's README, an
// Interval, three probes, IsExcluded for a canceled call and a not-found
// — as another; each gap between what a team expects and what the
// library does is waived with its source line.
package gobreaker
