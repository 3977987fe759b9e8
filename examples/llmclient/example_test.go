package llmclient_test

import (
	"context"
	"fmt"
	"time"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The client classifies a message against a provider that rate-limits it
// twice, the second time with a Retry-After. One Step drives the whole
// schedule: a 500ms backoff (the random source pinned at the
// top of its range), then the server's 7s.
func ExampleClient_Classify() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		clk := fakeclock.New(t)
		tr := httpscript.NewTransport(t, rateLimited, rateLimited.RetryAfter(7*time.Second), answer).WithClock(clk)
		c := &llmclient.Client{HTTP: tr.Client(), URL: apiURL, Backoff: llmclient.Options{Clock: clk, Random: seqrand.Max().Float64}}
		done := make(chan string, 1)
		go func() {
			label, err := c.Classify(context.Background(), "Where do I send my invoice?")
			done <- fmt.Sprint(label, " ", err)
		}()
		clk.Step(time.Minute)
		select {
		case r := <-done:
			fmt.Println(r)
		default: // settled, so a call still running waits for something
			fmt.Println("the call has not returned")
		}
		fmt.Println(tr)
	})
	// Output:
	// billing <nil>
	// httpscript.Transport: 3 requests
	//     attempt  at      request                                           route  result
	//     1        +0s     POST https://api.example.com/v1/chat/completions  -      429 Too Many Requests
	//     2        +500ms  POST https://api.example.com/v1/chat/completions  -      429 Too Many Requests
	//     3        +7.5s   POST https://api.example.com/v1/chat/completions  -      200 OK
	// default script:
	//     step  reply                                                                   times  served
	//     1     429 Too Many Requests, body "{\"error\":{\"message\"…"                  once   1
	//     2     429 Too Many Requests, Retry-After: 7, body "{\"error\":{\"message\"…"  once   1
	//     3     200 OK, body "{\"choices\":[{\"messa…"                                  once   1
	// PASS
}

// The old loop slept before trying: after settling at 0s, no request has
// been made.
func ExampleWithBackoffSleepFirst() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		fmt.Println(nothingBeforeTheFirstAttempt(t, llmclient.WithBackoffSleepFirst[string]))
	})
	// Output:
	// retrytest: got 0 attempts, want 1
	// retry schedule (0 attempts):
	//     attempt  delay  result
	//   > 1        -      (missing)  <-- got 0 attempts, want 1
	// PASS
}

// The old clamp applied to the exponent: five delays are right, and the
// sixth doubles past the ceiling.
func ExampleWithBackoffClampedExponent() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		fmt.Println(sixthDelayAtTheCeiling(t, llmclient.WithBackoffClampedExponent[string]))
	})
	// Output:
	// retrytest: attempt 7 of 7: delay = 16s, want 8s
	// retry schedule (7 attempts):
	//     attempt  delay  at     want   result
	//     1        0s     0s     0s     429 Too Many Requests
	//     2        500ms  500ms  500ms  429 Too Many Requests
	//     3        1s     1.5s   1s     429 Too Many Requests
	//     4        2s     3.5s   2s     429 Too Many Requests
	//     5        4s     7.5s   4s     429 Too Many Requests
	//     6        8s     15.5s  8s     429 Too Many Requests
	//   > 7        16s    31.5s  8s     200 OK  <-- delay 16s, want 8s
	// PASS
}

// The old delay never grew: 500ms, then 500ms again.
func ExampleWithBackoffConstantDelay() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		fmt.Println(delaysDouble(t, llmclient.WithBackoffConstantDelay[string]))
	})
	// Output:
	// retrytest: attempt 3 of 3: at = 1s, want 1.5s
	// retry schedule (3 attempts):
	//     attempt  delay  at     want      result
	//     1        0s     0s     at 0s     429 Too Many Requests
	//     2        500ms  500ms  at 500ms  429 Too Many Requests
	//   > 3        500ms  1s     at 1.5s   200 OK  <-- at 1s, want 1.5s
	// PASS
}

// The old parser read "Retry-After: NaN" as a number: the retries came at
// once.
func ExampleWithBackoffNaNRetryAfter() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		fmt.Println(malformedRetryAfterFallsBack(t, llmclient.WithBackoffNaNRetryAfter[string]))
	})
	// Output:
	// retrytest: attempt 2 of 3: at = 0s, want 500ms
	// retrytest: attempt 3 of 3: at = 0s, want 1.5s
	// retry schedule (3 attempts):
	//     attempt  delay  at  want      result
	//     1        0s     0s  at 0s     429 Too Many Requests, Retry-After: NaN (malformed)
	//   > 2        0s     0s  at 500ms  429 Too Many Requests, Retry-After: NaN (malformed)  <-- at 0s, want 500ms
	//     3        0s     0s  at 1.5s   200 OK
	// PASS
}
