package presets

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// riverAttempts is River's MaxAttemptsDefault (river@v0.51.2
// internal/rivercommon/river_common.go:16): attempts, the first included,
// after which River discards a job without asking its policy.
const riverAttempts = 25

// River returns River's default retry policy, DefaultClientRetryPolicy
// (river@v0.51.2 internal/retrypolicy/default.go:31-40, 78-97): after a
// job's n-th error (n = len(job.Errors)+1, 1 for the first retry) the next
// attempt is n⁴ seconds later, plus or minus up to 10%, drawn from
// rand.Float64: n⁴·(1 + (2r-1)·0.1) seconds, within [0.9·n⁴, 1.1·n⁴]
// seconds; 25 attempts, 24 retries, at most 538h42m2s (22.4 days) in all.
func River() Preset {
	return Preset{
		Name: "river", Title: "River's default",
		About:    "n^4 s ±10% after the n-th error, 25 attempts (24 retries)",
		Attempts: riverAttempts,
		Decide:   riverDecide,
		window: func(k int) retrytest.Window {
			n4 := time.Duration(k * k * k * k)
			return retrytest.Window{Min: n4 * 900 * time.Millisecond, Max: n4 * 1100 * time.Millisecond}
		},
	}
}

func riverDecide(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	if failed < 0 || failed >= riverAttempts-1 {
		return retrytest.Decision{Reason: "exhausted"}
	}
	s := math.Pow(float64(failed+1), 4)          // retrySecondsWithoutJitter, default.go:103-106
	s += s * (rng.Float64()*2*0.1 - 0.1)         // default.go:91
	d := time.Duration(s * float64(time.Second)) // timeutil.SecondsAsDuration
	return retrytest.Decision{Retry: true, Delay: d, Reason: "backoff"}
}
