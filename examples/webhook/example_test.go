package webhook_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
	"github.com/retrykit/retrykit/seqrand"
)

// The policy decides about every delivery of a webhook that keeps timing
// out: twelve retries, each drawn under its ceiling, then it gives up.
func ExampleDecide() {
	run, err := policysim.Run(transient(webhook.Decide), 7)
	fmt.Println(err)
	fmt.Println(run)
	fmt.Println(retrytest.CheckDelaysWithin(run, ladder...))
	// Output:
	// <nil>
	// job (seed 7): 13 attempts, stopped after attempt 13: exhausted
	//     attempt  delay             at                  result
	//     1        0s                0s                  retry: backoff
	//     2        1.347643863s      1.347643863s        retry: backoff
	//     3        2.997180156s      4.344824019s        retry: backoff
	//     4        2.314704108s      6.659528127s        retry: backoff
	//     5        6.703508985s      13.363037112s       retry: backoff
	//     6        1m9.231494785s    1m22.594531897s     retry: backoff
	//     7        2m7.051687889s    3m29.646219786s     retry: backoff
	//     8        5m19.086752466s   8m48.732972252s     retry: backoff
	//     9        5m42.318282577s   14m31.051254829s    retry: backoff
	//     10       13m4.904816108s   27m35.956070937s    retry: backoff
	//     11       19m23.013076892s  46m58.969147829s    retry: backoff
	//     12       56m31.315105075s  1h43m30.284252904s  retry: backoff
	//     13       12m56.38325311s   1h56m26.667506014s  stop: exhausted
	// <nil>
}

// The worker delivers an event, and the policy schedules each retry on the
// clock: with the jitter pinned at the middle of its window, 2.5s after
// the first delivery and 5s after the second.
func ExampleWorker() {
	retrytest.NewExampleT().Run(func(t *retrytest.ExampleT) {
		ctx := context.Background()

		clk := fakeclock.New(t)
		tr := httpscript.NewTransport(t, httpscript.Respond(503), httpscript.Respond(429), httpscript.Respond(200)).WithClock(clk)
		w := &webhook.Worker{
			Client: tr.Client(),
			Clock:  clk,
			Rand:   rand.New(seqrand.Fixed(0.5)),
			Done:   func(ev webhook.Event, err error) { fmt.Println("done:", ev.ID, err) },
		}
		fmt.Println("first delivery:", w.Deliver(ctx, event, 0))
		clk.Step(time.Minute)
		fmt.Println(retrytest.CheckAttemptsAt(tr, 0, 2500*time.Millisecond, 7500*time.Millisecond))
	})
	// Output:
	// first delivery: 503 Service Unavailable
	// done: evt-1 <nil>
	// <nil>
	// PASS
}

// The old policy added the jitter after capping: every delay past the cap
// is exactly one hour, and 2,000 jobs at the cap retry in step.
func ExampleDecideJitterAfterCap() {
	fmt.Println(retrytest.CheckSpread(atCap(webhook.DecideJitterAfterCap), spreadOverTheHour))
	// Output:
	// retrytest: bucket [55m, 1h] holds 2000 of 2000 delays, want fewer than 333.3 (2x the mean 166.7)
	// retrytest: the shortest delay 1h is not in the first bucket [0s, 5m)
	// 2000 delays in 12 buckets of 5m over [0s, 1h]:
	//     bucket      count
	//     [0s, 5m)    0
	//     [5m, 10m)   0
	//     [10m, 15m)  0
	//     [15m, 20m)  0
	//     [20m, 25m)  0
	//     [25m, 30m)  0
	//     [30m, 35m)  0
	//     [35m, 40m)  0
	//     [40m, 45m)  0
	//     [45m, 50m)  0
	//     [50m, 55m)  0
	//   > [55m, 1h]   2000   ####################  <-- 12x the mean
}

// The same bug, seen by the recovering endpoint: 11,000 deliveries that
// failed together retry together, one hour apart, and the whole fleet
// arrives in one minute.
func ExampleDecideJitterAfterCap_fleet() {
	load, err := fleet(webhook.DecideJitterAfterCap).Simulate()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(policysim.CheckPeakAtMost(load, 600))
	// Output:
	// policysim: peak = 11000 requests in [25m, 26m) after recovery, want at most 600
	// fleet: requests per 1m after recovery from a 2h outage (11000 jobs)
	//   11000 |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//         |                         #
	//     600 |-------------------------#----------------------------------
	//         |                         #
	//       0 +----------+---------+---------+---------+---------+---------
	//          0s        10m       20m       30m       40m       50m
	//                                   ^ peak 11000 in [25m, 26m)
}

// The old cap was 60 seconds: with every draw at the top of its window,
// the delays stop growing at one minute and never reach the intended hour.
func ExampleDecideMinuteCap() {
	top, err := policysim.RunRand(transient(webhook.DecideMinuteCap), rand.New(seqrand.Max()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(retrytest.CheckCappedAt(top, time.Hour))
	// Output:
	// retrytest: no delay reached the cap 1h: the longest is 1m (attempt 6 of 13)
	// retry schedule (13 attempts):
	//     attempt  delay  at     want   result
	//     1        0s     0s     <= 1h  retry: backoff
	//     2        5s     5s     <= 1h  retry: backoff
	//     3        10s    15s    <= 1h  retry: backoff
	//     4        20s    35s    <= 1h  retry: backoff
	//     5        40s    1m15s  <= 1h  retry: backoff
	//   > 6        1m     2m15s  <= 1h  retry: backoff  <-- longest delay 1m, below the cap 1h
	//     7        1m     3m15s  <= 1h  retry: backoff
	//     8        1m     4m15s  <= 1h  retry: backoff
	//     9        1m     5m15s  <= 1h  retry: backoff
	//     10       1m     6m15s  <= 1h  retry: backoff
	//     11       1m     7m15s  <= 1h  retry: backoff
	//     12       1m     8m15s  <= 1h  retry: backoff
	//     13       1m     9m15s  <= 1h  stop: exhausted
}

// The old policy retried a 429 without Retry-After at once, under the
// reason "retry-after", against an endpoint that had just said it was
// overloaded. The classification table catches it.
func ExampleDecideNoDelayOn429() {
	fmt.Println(retrytest.CheckClassifier(classify(webhook.DecideNoDelayOn429), classification...))
	// Output:
	// retrytest: classifier gets 1 of 11 cases wrong: case 6 (429 Too Many Requests)
	//     case  input                                    got                      want
	//     1     500 Internal Server Error                retry: backoff (2.5s)    retry: backoff
	//     2     502 Bad Gateway                          retry: backoff (2.5s)    retry: backoff
	//     3     503 Service Unavailable                  retry: backoff (2.5s)    retry: backoff
	//     4     408 Request Timeout                      retry: backoff (2.5s)    retry: backoff
	//     5     429 Too Many Requests, Retry-After: 120  retry: retry-after (2m)  retry: retry-after (>= 2m)
	//   > 6     429 Too Many Requests                    retry: retry-after (0s)  retry: backoff (>= 1ns)  <-- wrong reason, delay under 1ns
	//     7     400 Bad Request                          stop: permanent          stop: permanent
	//     8     404 Not Found                            stop: permanent          stop: permanent
	//     9     410 Gone                                 stop: permanent          stop: permanent
	//     10    dial tcp: i/o timeout                    retry: backoff (2.5s)    retry: backoff
	//     11    TLS: certificate expired                 stop: permanent          stop: permanent
}
