package matchers_test

import (
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
)

// Seed 001: counting requests at the transport tells a circuit breaker
// doing its job from one that merely spaces the failures out. Five 503s a
// second apart should open it on the fifth, at 4s, and nothing should
// reach the server from the next call, at 5s, until it half-opens at
// 1m4s; this client still sends one request every 10s.
func ExampleHaveNoAttemptsBetween() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		g := newGomega()
		clk := fakeclock.New(t)
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always()).WithClock(clk)
		for _, wait := range []time.Duration{0, time.Second, time.Second, time.Second, time.Second, 10 * time.Second, 10 * time.Second} {
			clk.Advance(wait)
			if resp, err := tr.Client().Get("https://api.example.com/v1/items"); err == nil {
				resp.Body.Close()
			}
		}
		g.Expect(tr).To(matchers.HaveNoAttemptsBetween(5*time.Second, 64*time.Second))
	})
	// Output:
	// Expected
	//     retry schedule (7 attempts)
	//       attempt  delay  at    want  result
	//       1        0s     0s    -     503 Service Unavailable
	//       2        1s     1s    -     503 Service Unavailable
	//       3        1s     2s    -     503 Service Unavailable
	//       4        1s     3s    -     503 Service Unavailable
	//       5        1s     4s    -     503 Service Unavailable
	//       -        -      5s    -     (from here, no attempt wanted)
	//     > 6        10s    14s   none  503 Service Unavailable  <-- in [5s, 1m4s), want none
	//       7        10s    24s   none  503 Service Unavailable
	//       -        -      1m4s  -     (until here)
	// to have no attempt in [5s, 1m4s): 2 attempts in [5s, 1m4s), want none: attempts 6 to 7 of 7, from 14s to 24s
	// PASS
}
