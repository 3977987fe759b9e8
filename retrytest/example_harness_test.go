package retrytest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// A client that ignores the server's Retry-After: 7 and retries after its
// own 1s backoff. The failure table says, in the row of the 429, how long
// the server asked it to wait.
func ExampleAssertAttemptsAt_ignoredRetryAfter() {
	clk := clockwork.NewFakeClock()
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		tr := httpscript.NewTransport(t,
			httpscript.Respond(429).RetryAfter(7*time.Second),
			httpscript.Respond(200),
		).WithClock(clk)
		client := tr.Client()

		resp, _ := client.Get("https://api.example.com/v1/chat")
		resp.Body.Close()
		clk.Advance(time.Second) // the client's own backoff, not the server's 7s
		resp, _ = client.Get("https://api.example.com/v1/chat")
		resp.Body.Close()

		retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
	})
	// Output:
	// retrytest: attempt 2 of 2: at = 1s, want 7s
	// retry schedule (2 attempts):
	//     attempt  delay  at  want   result
	//     1        0s     0s  at 0s  429 Too Many Requests, Retry-After: 7 (asks to wait 7s)
	//   > 2        1s     1s  at 7s  200 OK  <-- at 1s, want 7s
	// FAIL
}

// Seed 000's classification table, against a classifier that retries a
// 404 and gives up on a 429.
func ExampleCheckClassifier() {
	classify := func(resp *http.Response, err error) bool {
		return err != nil || resp.StatusCode >= 404 && resp.StatusCode != 429 // bugs
	}
	err := retrytest.CheckClassifier(classify,
		retrytest.ClassifyCase{Status: 503, Retry: true},
		retrytest.ClassifyCase{Status: 429, Retry: true},
		retrytest.ClassifyCase{Status: 404},
		retrytest.ClassifyCase{Err: errors.New("connect timeout"), Retry: true},
	)
	fmt.Println(err)
	// Output:
	// retrytest: classifier gets 2 of 4 cases wrong: case 2 (429 Too Many Requests), case 3 (404 Not Found)
	//     case  input                    got    want
	//     1     503 Service Unavailable  retry  retry
	//   > 2     429 Too Many Requests    stop   retry  <-- wrong decision
	//   > 3     404 Not Found            retry  stop  <-- wrong decision
	//     4     connect timeout          retry  retry
}

// Seed 003: "assert that a total budget aborts the loop mid-wait". This
// loop finished its 2s wait and tried again after its 2s deadline.
func ExampleCheckStopped() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		ctx, cancel := clockctx.WithTimeout(context.Background(), clk, 2*time.Second)
		defer cancel()
		sw := recorder.NewStopwatch().WithClock(clk)
		call := recorder.Start(clk, func() error {
			for _, d := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
				sw.Attempt()
				sw.AttemptResult(errors.New("503 Service Unavailable"))
				clk.Sleep(d) // bug: deaf to ctx
			}
			sw.Attempt()
			sw.AttemptResult(ctx.Err())
			return ctx.Err()
		})
		clk.Step(10 * time.Second)
		fmt.Println(retrytest.CheckStopped(sw, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded}))
	})
	// Output:
	// retrytest: returned at 3.5s, 1.5s after the stop at 2s: attempt 4 began at 3.5s, so the wait before it (2s) was not cut short
	// retrytest: attempt 4 began at 3.5s, at or after the stop at 2s
	// retry schedule stopping at 2s (4 attempts):
	//     attempt  delay  at     want  result
	//     1        0s     0s     < 2s  503 Service Unavailable
	//     2        500ms  500ms  < 2s  503 Service Unavailable
	//     3        1s     1.5s   < 2s  503 Service Unavailable
	//   > 4        2s     3.5s   < 2s  context deadline exceeded  <-- after the stop
	//     return   0s     3.5s   2s    context deadline exceeded
	// PASS
}

// TestExampleSleepAndWait is the example of bubble.SleepAndWait, which needs a synctest
// bubble and so a *testing.T: the retry comes at exactly 7s.
func TestExampleSleepAndWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(7*time.Second), httpscript.Respond(200))
		go newRetryClient(tr).get(t.Context(), apiURL)

		bubble.SleepAndWait(6999 * time.Millisecond)
		retrytest.AssertAttempts(t, tr, 1)
		bubble.SleepAndWait(time.Millisecond)
		retrytest.AssertAttempts(t, tr, 2)
	})
}
