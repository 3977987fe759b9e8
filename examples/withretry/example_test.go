package withretry_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/withretry"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// A recorder as Sleep and a fixed random source make the whole schedule a
// value: the call is rate-limited twice and succeeds on attempt 3, after
// waits of half their ceilings.
func ExampleWithRetry() {
	rec := recorder.New()
	out, err := withretry.WithRetry(context.Background(), call(rec, errRateLimited, errRateLimited, nil),
		withretry.Options{}, withretry.Deps{Sleep: rec.SleepContext, Random: seqrand.Fixed(0.5).Float64})
	fmt.Println(out, err)
	fmt.Println(rec)
	// Output:
	// ok <nil>
	// recorder: 3 attempts, 2 delays, total 1.5s
	//   attempt  delay  at     result
	//   1        0s     0s     retryable 429 Too Many Requests
	//   2        500ms  500ms  retryable 429 Too Many Requests
	//   3        1s     1.5s   ok
}

// The old implementation took the exponent from the retry count: at the
// top of the random source's range, every wait is twice its window's top.
func ExampleWithRetryExponentFromRetryCount() {
	rec := exhaust(withretry.WithRetryExponentFromRetryCount[string], seqrand.Max())
	fmt.Println(retrytest.CheckDelaysWithin(rec, windows...))
	// Output:
	// retrytest: attempt 2 of 5: delay = 1.999999999s, want within [0s, 1s)
	// retrytest: attempt 3 of 5: delay = 3.999999999s, want within [0s, 2s)
	// retrytest: attempt 4 of 5: delay = 7.999999999s, want within [0s, 4s)
	// retrytest: attempt 5 of 5: delay = 15.999999999s, want within [0s, 8s)
	// retry schedule (5 attempts):
	//     attempt  delay          at             want      result
	//     1        0s             0s             0s        retryable 503 Service Unavailable
	//   > 2        1.999999999s   1.999999999s   [0s, 1s)  retryable 503 Service Unavailable  <-- delay 1.999999999s outside [0s, 1s)
	//     3        3.999999999s   5.999999998s   [0s, 2s)  retryable 503 Service Unavailable
	//     4        7.999999999s   13.999999997s  [0s, 4s)  retryable 503 Service Unavailable
	//     5        15.999999999s  29.999999996s  [0s, 8s)  retryable 503 Service Unavailable
}

// The old implementation read Attempts as retries: five made six calls.
func ExampleWithRetryCountingRetries() {
	rec := exhaust(withretry.WithRetryCountingRetries[string], seqrand.Fixed(0.5))
	fmt.Println(retrytest.CheckAttempts(rec, 5))
	// Output:
	// retrytest: got 6 attempts (5 retries), want 5 (4 retries)
	// retry schedule (6 attempts):
	//     attempt  delay  at     result
	//     1        0s     0s     retryable 503 Service Unavailable
	//     2        500ms  500ms  retryable 503 Service Unavailable
	//     3        1s     1.5s   retryable 503 Service Unavailable
	//     4        2s     3.5s   retryable 503 Service Unavailable
	//     5        4s     7.5s   retryable 503 Service Unavailable
	//   > 6        8s     15.5s  retryable 503 Service Unavailable  <-- got 6 attempts, want 5
}

// The same check as a Gomega matcher, as a test written with
// gomega.NewWithT(t) reports it.
func ExampleWithRetryCountingRetries_gomega() {
	g := gomega.NewGomega(func(message string, _ ...int) {
		for line := range strings.SplitSeq(message, "\n") {
			fmt.Println(strings.TrimRight(line, " "))
		}
	})
	g.Expect(exhaust(withretry.WithRetryCountingRetries[string], seqrand.Fixed(0.5))).To(matchers.HaveAttempts(5))
	// Output:
	// Expected
	//     retry schedule (6 attempts)
	//       attempt  delay  at     result
	//       1        0s     0s     retryable 503 Service Unavailable
	//       2        500ms  500ms  retryable 503 Service Unavailable
	//       3        1s     1.5s   retryable 503 Service Unavailable
	//       4        2s     3.5s   retryable 503 Service Unavailable
	//       5        4s     7.5s   retryable 503 Service Unavailable
	//     > 6        8s     15.5s  retryable 503 Service Unavailable  <-- got 6 attempts, want 5
	// to have 5 attempts: got 6 attempts (5 retries), want 5 (4 retries)
}

// The client sends one Idempotency-Key with every attempt of a POST, so
// the server applies the charge once although the client sent it twice.
func ExampleClient_Post() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		ledger := httpscript.NewLedger()
		tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(201)).WithLedger(ledger)
		c := withretry.Client{HTTP: tr.Client(), Deps: withretry.Deps{Sleep: recorder.New().SleepContext}}
		_, err := c.Post(context.Background(), apiURL, []byte(`{"amount":1000}`))
		fmt.Println(err)
		fmt.Println(len(tr.Requests()), "requests, applied", ledger.Applied(), "time(s)")
		ledger.AssertExactlyOnce(t)
	})
	// Output:
	// <nil>
	// 2 requests, applied 1 time(s)
	// PASS
}
