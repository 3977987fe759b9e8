package conformance_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// retry is the code under test: full jitter over 100ms doubling to a 1s
// cap, on the clock and the random source it is given. Its loop counts
// retries where its doc says attempts, so it makes one attempt too many.
func retry(clk clockwork.Clock, rng *rand.Rand, attempts int) conformance.Loop {
	return func(ctx context.Context, op func(context.Context) error) error {
		for retry := 0; ; retry++ {
			err := op(ctx)
			if err == nil || retry == attempts {
				return err
			}
			ceiling := min(100*time.Millisecond<<retry, time.Second)
			if err := clockctx.Sleep(ctx, clk, time.Duration(rng.Int64N(int64(ceiling)+1))); err != nil {
				return err
			}
		}
	}
}

// A loop checked against the policy it claims: every property but one
// holds, and the report shows the schedule of the one that fails.
func ExampleCheckLoop() {
	spec := conformance.Spec{
		Policy: retrytest.Policy{First: 100 * time.Millisecond, Cap: time.Second, Jitter: retrytest.FullJitter, Attempts: 6},
	}
	report, err := conformance.CheckLoop(spec, func(s conformance.Seams) conformance.Loop {
		return retry(s.Clock, rand.New(s.Rand), 6)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(report)
	// Output:
	// conformance of the loop: 1 of 16 properties fails
	//     property                result
	//     WaitsOnTheClock         pass
	//     FirstAttemptImmediate   pass
	//     WaitsInWindows          pass
	//     JitterFromSource        pass
	//     CapReached              pass
	//     NoSpikeAtCap            pass
	//   > AttemptCount            FAIL
	//     NoWaitAfterLastAttempt  pass
	//     PermanentNotRetried     skip: the Spec names no PermanentErr
	//     CancelDuringWait        pass
	//     DeadlineCutsWait        pass
	//     BudgetHonoured          skip: the Spec declares no Budget
	//     AttemptTimeout          skip: the Spec declares no AttemptTimeout
	//     FreshEachCall           pass
	//     ConcurrentCalls         pass
	//     NoLeaks                 pass
	//
	// --- AttemptCount
	// retrytest: got 7 attempts (6 retries), want 6 (5 retries)
	// retry schedule (7 attempts):
	//     attempt  delay  at     result
	//     1        0s     0s     conformance: transient failure
	//     2        100ms  100ms  conformance: transient failure
	//     3        200ms  300ms  conformance: transient failure
	//     4        400ms  700ms  conformance: transient failure
	//     5        800ms  1.5s   conformance: transient failure
	//     6        1s     2.5s   conformance: transient failure
	//   > 7        1s     3.5s   conformance: transient failure  <-- got 7 attempts, want 6
}
