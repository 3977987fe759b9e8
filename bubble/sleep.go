package bubble

import (
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// SleepAndWait moves the clock of the calling goroutine's synctest bubble
// forward by d and then waits until every other goroutine in the bubble
// is durably blocked: time.Sleep(d) followed by synctest.Wait. After Sleep
// alone, goroutines woken at the same instant may not have run yet, and a
// check made then is racy.
//
//	go client.Do(req)                        // 429 with Retry-After: 7
//	bubble.SleepAndWait(6999 * time.Millisecond)
//	retrytest.AssertAttempts(t, tr, 1)        // still waiting
//	bubble.SleepAndWait(time.Millisecond)
//	retrytest.AssertAttempts(t, tr, 2)        // retried at exactly 7s
//
// A d of 0 only waits. SleepAndWait panics if d is negative, and if it is not
// called from inside a bubble, where time.Sleep would sleep in real time.
func SleepAndWait(d time.Duration) {
	if d < 0 {
		panic("bubble: SleepAndWait: negative duration " + schedfmt.Duration(d))
	}
	if !Inside() {
		panic("bubble: SleepAndWait: not inside a testing/synctest bubble, where time.Sleep(" + schedfmt.Duration(d) +
			") would sleep in real time; call it from the function passed to synctest.Test, " +
			"or step a fakeclock.Clock (Clock.Step) outside a bubble")
	}
	if d > 0 {
		time.Sleep(d)
	}
	synctest.Wait()
}
