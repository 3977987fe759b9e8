// Package bubble holds the helpers of a test of retry code that calls the
// time package itself, run inside a testing/synctest bubble, where that
// time is fake: most retry libraries and SDK clients are such code.
//
//	synctest.Test(t, func(t *testing.T) {
//		tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200))
//		go client.Do(req) // sleeps with time.Sleep between attempts
//		bubble.SleepAndWait(6999 * time.Millisecond)
//		retrytest.AssertAttempts(t, tr, 1) // still waiting
//		bubble.SleepAndWait(time.Millisecond)
//		retrytest.AssertAttempts(t, tr, 2) // retried at exactly 7s
//	})
//
// [SleepAndWait] moves the bubble's clock and lets the woken code run;
// [CallWithTimeout] runs a call under a deadline to its end, for
// retrytest.CheckStopped; [CheckTime] catches a time read outside the
// bubble, the classic pitfall of a budget built before synctest.Test;
// [Inside] tells whether the caller runs in a bubble at all.
package bubble
