package asynqjobs_test

import (
	"errors"
	"testing"
	"time"

	"github.com/hibiken/asynq"
)

// asynq's default policy, asynq.DefaultRetryDelayFunc, many draws per
// retry: for n retries so far (0 for the first retry) the delay is
// n⁴ + 15 + U{0…29}·(n+1) seconds (asynq@v0.26.0 server.go:401-405,
// "taken from Sidekiq"): every draw is one of those 30 values, and 3000
// draws show all 30 — both edges, n⁴+15 s and n⁴+15+29(n+1) s, and every
// step between. The draws come from math/rand/v2's global source, which a
// test cannot pin; a value is missed with probability 30·(29/30)³⁰⁰⁰,
// about 10⁻⁴², per retry. asynq retries a task 25 times by default
// (26 attempts).
//
// The whole contract of this policy, through the suite, is
// TestAsynqDefaultPolicyConforms; this test pins every value the draw
// can take.
func TestAsynqDefaultRetryDelayIsSidekiqs(t *testing.T) {
	const draws = 3000
	task := asynq.NewTask("webhook:deliver", nil)
	for n := 0; n < 25; n++ {
		seen := map[time.Duration]bool{}
		for range draws {
			seen[asynq.DefaultRetryDelayFunc(n, errors.New("503"), task)] = true
		}
		for k := range 30 {
			want := time.Duration(n*n*n*n+15+k*(n+1)) * time.Second
			if !seen[want] {
				t.Errorf("n = %d: in %d draws asynq's default never waited %s = (%d⁴ + 15 + %d·%d) s", n, draws, want, n, k, n+1)
			}
			delete(seen, want)
		}
		for d := range seen {
			t.Errorf("n = %d: asynq's default waited %s, which is not n⁴ + 15 + k·(n+1) seconds for k in 0…29", n, d)
		}
	}
}
