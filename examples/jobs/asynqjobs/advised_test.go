package asynqjobs_test

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/hibiken/asynq"
)

// What follows is fleetsim's advice for asynq's default, pasted from
// "go run ./examples/fleetsim -preset asynq" as a user would
// (examples/fleetsim/testdata/preset_asynq.golden): TestAdvisedPasteIsFleetsims
// keeps it that output, and TestAdvisedPasteConforms holds it to the
// policy it was written from.

// AdvisedRetryDelay is fleetsim's advice for asynq: 15s x3, jitter [0s,
// k·29s] added at retry k under a 92h9m51s cap, 26 attempts (25 retries).
// Set it in the server's Config, and give every task the retries:
//
//	asynq.Config{RetryDelayFunc: AdvisedRetryDelay, ...}
//	asynq.NewTask(typename, payload, asynq.MaxRetry(25))
//
// Imports: math, math/rand/v2, time and github.com/hibiken/asynq.
func AdvisedRetryDelay(n int, _ error, _ *asynq.Task) time.Duration {
	// n is the task's retries so far, 0 for the first retry.
	// The ceiling: 15s·3^n, at most the 92h9m51s cap.
	c := 331791 * time.Second
	f := float64(15*time.Second) * math.Pow(3, float64(n))
	if f < float64(c) {
		c = time.Duration(f)
	}
	// Jitter up to 29s a retry: [c, c+(n+1)·29s].
	d := c + rand.N(time.Duration(n+1)*29*time.Second+1)
	return d
}
