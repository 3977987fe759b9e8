package conformance_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// chatPolicy is a chat client's retry policy: a 429 waits its
// Retry-After, or 60s when it has none that can be read, plus up to 1s of
// jitter, and gives up on a hint above an hour; a 503 or a connection
// error waits the backoff (100ms doubling, no jitter); three retries.
func chatPolicy(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	switch {
	case failed >= 3:
		return retrytest.Decision{Reason: "exhausted"}
	case o.Status == 429:
		d := 60 * time.Second
		if h, err := retryafter.Parse(o.Header.Get("Retry-After"), o.Now); err == nil {
			d = h
		}
		if d > time.Hour {
			return retrytest.Decision{Reason: "hint above an hour"}
		}
		return retrytest.Decision{Retry: true, Delay: d + time.Duration(rng.Int64N(int64(time.Second))), Reason: "rate limited"}
	case o.Status == 503 || o.Err != nil:
		return retrytest.Decision{Retry: true, Delay: 100 * time.Millisecond << failed, Reason: "backoff"}
	}
	return retrytest.Decision{Reason: "permanent"}
}

// A policy the named fields cannot state — jitter added to the server's
// hint, and a 60s fallback after a 429 whose hint cannot be read — stated
// by a Rule: it names the windows that differ, and leaves the rest to the
// Policy and the Hints (Retry.Default).
func ExampleRuleFunc() {
	spec := conformance.Spec{
		Policy:    retrytest.Policy{First: 100 * time.Millisecond, Attempts: 4},
		Retryable: []int{429, 503},
		Hints:     &conformance.Hints{Statuses: []int{429}, Max: time.Hour, GiveUp: true},
		Rule: conformance.RuleFunc("a 429 waits its hint, or 60s, plus up to 1s", func(r conformance.Retry) conformance.Want {
			if r.Cause.Status != 429 || r.HintOK && r.Hint > time.Hour {
				return r.Default()
			}
			h := 60 * time.Second
			if r.HintOK {
				h = r.Hint
			}
			return conformance.Want{Window: retrytest.Window{Min: h, Max: h + time.Second, Open: true}, Draw: conformance.DrawUniform}
		}),
	}
	report, err := conformance.CheckPolicy(spec, chatPolicy)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("passed:", report.Passed())

	// The jitter drawn below the hint, not above it: the waits after a 429
	// leave the Rule's windows, and the failures say whose windows.
	below := func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
		d := chatPolicy(failed, o, rng)
		if o.Status == 429 && d.Retry {
			d.Delay -= time.Second
		}
		return d
	}
	report, _ = conformance.CheckPolicy(spec, below)
	fmt.Println("failed:", report.Failed())
	for _, res := range report.Results {
		for _, c := range res.Cases {
			if res.Property == "RetryAfterSeconds" && c.Name == "429" {
				fmt.Println(c.Message)
			}
		}
	}
	// Output:
	// passed: true
	// failed: [RetryableStatuses RetryAfterSeconds RetryAfterHTTPDate RetryAfterMalformed RetryAfterAbsurd]
	// seconds Retry-After ("7") on 429 Too Many Requests: the policy retried after 6.999999999s, want [7s, 8s), by the Rule (a 429 waits its hint, or 60s, plus up to 1s)
}
