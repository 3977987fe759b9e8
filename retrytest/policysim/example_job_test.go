package policysim_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
	"github.com/retrykit/retrykit/seqrand"
)

// Seed 000: run a pure policy over every attempt with a seeded source and
// check the whole schedule. This one has the seed's cap bug: 60s instead
// of an hour.
func ExampleRun_capBug() {
	policy := func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		if failed+1 >= 12 {
			return retrytest.Decision{Reason: "exhausted"}
		}
		ceiling := min(60*time.Second, 5*time.Second<<failed) // bug: the cap is an hour
		return retrytest.Decision{Retry: true, Delay: time.Duration(rng.Float64() * float64(ceiling)), Reason: "backoff"}
	}
	run, err := policysim.Run(policy, 7)
	fmt.Println(err, len(run.Decisions), run.Reasons()[11])

	// Every delay at the top of its window shows the cap.
	top, _ := policysim.RunRand(policy, rand.New(constSource(^uint64(0))))
	fmt.Println(top.Delays()[4:])
	fmt.Println(retrytest.CheckCappedAt(top, time.Hour) != nil)
	// Output:
	// <nil> 12 exhausted
	// [59.999999999s 59.999999999s 59.999999999s 59.999999999s 59.999999999s 59.999999999s 59.999999999s]
	// true
}

// A policy that never gives up is cut short at the attempt limit.
func ExampleRun_runaway() {
	forever := func(int, retrytest.Outcome, *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: true, Delay: time.Second, Reason: "backoff"}
	}
	run, err := policysim.Run(forever, 1, policysim.WithAttemptLimit(3))
	fmt.Println(errors.Is(err, policysim.ErrRunaway))
	fmt.Println(run)
	// Output:
	// true
	// job (seed 1): 3 attempts, cut short at the attempt limit
	//     attempt  delay  at  result
	//     1        0s     0s  retry: backoff
	//     2        1s     1s  retry: backoff
	//     3        1s     2s  retry: backoff
	//     4        1s     3s  (not made: attempt limit)
}

// Where a jittered policy puts every attempt at the edges of the random
// source: a test of jittered code asserts these instants, as a test of
// code without jitter asserts "the retry at exactly 500ms". Full jitter
// over [0, c) at the Max source is a nanosecond short of each ceiling.
func ExampleRunRand_edges() {
	policy := retrytest.Policy{First: 500 * time.Millisecond, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 3}
	for _, src := range seqrand.Endpoints() {
		run, _ := policysim.RunRand(policy.Decide, rand.New(src))
		fmt.Println(src, run.Delays())
	}
	// Output:
	// Min [0s 0s]
	// Max [499.999999ms 999.999999ms]
}
