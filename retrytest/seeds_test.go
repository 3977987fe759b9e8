package retrytest_test

// The schedule assertions of the three seed documents, written with
// retrytest, and proof that each catches the bug its seed describes.

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// Seed 000: a webhook worker's pure policy, full jitter under a ceiling
// that doubles from 5s and is capped at an hour, 12 attempts.

const (
	webhookBase        = 5 * time.Second
	webhookCap         = time.Hour
	webhookMaxAttempts = 12
)

// webhookCeiling is min(cap, base·2^attempt); oldCap is the production bug
// (60s instead of 60 minutes).
func webhookCeiling(attempt int, capDelay time.Duration) time.Duration {
	return min(capDelay, webhookBase<<attempt)
}

// decide returns the delay before the retry after the 0-based attempt, and
// false once attempts are exhausted.
func decide(attempt int, rng *rand.Rand) (time.Duration, bool) {
	if attempt >= webhookMaxAttempts {
		return 0, false
	}
	return time.Duration(rng.Float64() * float64(webhookCeiling(attempt, webhookCap))), true
}

// oldDecide is the policy before the incident: jitter added, then capped.
func oldDecide(attempt int, rng *rand.Rand) (time.Duration, bool) {
	if attempt >= webhookMaxAttempts {
		return 0, false
	}
	return min(webhookCap, webhookBase<<attempt+time.Duration(rng.Float64()*float64(webhookBase))), true
}

func webhookSchedule(seed uint64, policy func(int, *rand.Rand) (time.Duration, bool)) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, seed))
	var ds []time.Duration
	for a := 0; ; a++ {
		d, ok := policy(a, rng)
		if !ok {
			return ds
		}
		ds = append(ds, d)
	}
}

func TestSeed000CeilingGrowsThenCapsAtOneHour(t *testing.T) {
	ceilings := func(capDelay time.Duration) []time.Duration {
		var cs []time.Duration
		for a := range webhookMaxAttempts {
			cs = append(cs, webhookCeiling(a, capDelay))
		}
		return cs
	}
	retrytest.AssertCappedAt(t, retrytest.Waits(ceilings(webhookCap)...), time.Hour)
	// The bug: a 60s cap is obeyed but the intended one is never reached.
	err := retrytest.CheckCappedAt(retrytest.Waits(ceilings(time.Minute)...), time.Hour)
	if v, ok := errors.AsType[*retrytest.Violation](err); !ok || v.Message != "no delay reached the cap 1h: the longest is 1m (attempt 6 of 13)" {
		t.Errorf("CheckCappedAt(60s-capped ceilings, 1h) = %v, want the cap reported as never reached", err)
	}
}

func TestSeed000EveryDelayWithinItsCeiling(t *testing.T) {
	windows := retrytest.Policy{First: webhookBase, Growth: 2, Cap: webhookCap, Jitter: retrytest.FullJitter, Attempts: webhookMaxAttempts + 1}.Windows()
	for seed := range uint64(50) {
		retrytest.AssertDelaysWithin(t, retrytest.Waits(webhookSchedule(seed, decide)...), windows...)
		retrytest.AssertAttempts(t, retrytest.Waits(webhookSchedule(seed, decide)...), webhookMaxAttempts+1)
	}
}

func TestSeed000CappedDelaysAreSpreadNotSynchronised(t *testing.T) {
	spec := retrytest.Spread{Range: retrytest.Window{Max: time.Hour}, BucketWidth: 5 * time.Minute, MaxRatio: 2}
	atCap := func(policy func(int, *rand.Rand) (time.Duration, bool)) []time.Duration {
		rng := rand.New(rand.NewPCG(42, 42))
		ds := make([]time.Duration, 2000)
		for i := range ds {
			ds[i], _ = policy(10, rng)
		}
		return ds
	}
	retrytest.AssertSpread(t, retrytest.Waits(atCap(decide)...), spec)

	err := retrytest.CheckSpread(retrytest.Waits(atCap(oldDecide)...), spec)
	if v, ok := errors.AsType[*retrytest.Violation](err); !ok || v.Message != "bucket [55m, 1h] holds 2000 of 2000 delays, want fewer than 333.3 (2x the mean 166.7)" {
		t.Errorf("CheckSpread(jitter-then-cap delays) = %v, want the spike at the cap reported", err)
	}
}

// Seed 001: a retry loop with an injected sleep and random source, full
// jitter floor(random·ceiling) under min(maxDelay, base·2^i).

// withRetry makes attempts attempts that all fail with a retryable error,
// sleeping floor(random()·ceiling(i)) after the 0-based attempt i.
func withRetry(attempts int, random func() float64, sleep func(time.Duration), ceiling func(i int) time.Duration) {
	for i := range attempts - 1 {
		sleep(time.Duration(math.Floor(random() * float64(ceiling(i)))))
	}
}

// maxBelowOne is the largest float64 below 1, the top endpoint of random().
var maxBelowOne = math.Nextafter(1, 0)

func TestSeed001EveryDelayInsideItsJitterWindow(t *testing.T) {
	const base, maxDelay = time.Second, 10 * time.Second
	record := func(r float64, ceiling func(int) time.Duration) []time.Duration {
		var ds []time.Duration
		withRetry(7, func() float64 { return r }, func(d time.Duration) { ds = append(ds, d) }, ceiling)
		return ds
	}
	windows := retrytest.Policy{First: base, Growth: 2, Cap: maxDelay, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 7}.Windows()
	good := func(i int) time.Duration { return min(maxDelay, base<<i) }
	for _, r := range []float64{0, maxBelowOne} {
		retrytest.AssertDelaysWithin(t, retrytest.Waits(record(r, good)...), windows...)
	}

	for _, bug := range []struct {
		name    string
		ceiling func(int) time.Duration
		attempt int
	}{
		{"exponent from the retry count", func(i int) time.Duration { return min(maxDelay, base<<(i+1)) }, 2},
		{"ceiling not clamped", func(i int) time.Duration { return base << i }, 6},
	} {
		// The bottom endpoint cannot tell; the top one pins the bug.
		retrytest.AssertDelaysWithin(t, retrytest.Waits(record(0, bug.ceiling)...), windows...)
		err := retrytest.CheckDelaysWithin(retrytest.Waits(record(maxBelowOne, bug.ceiling)...), windows...)
		if v, ok := errors.AsType[*retrytest.Violation](err); !ok || v.Attempt != bug.attempt {
			t.Errorf("%s: CheckDelaysWithin = %v, want the first violation at attempt %d", bug.name, err, bug.attempt)
		}
	}
}

func TestSeed001FiveAttemptsAreFourWaits(t *testing.T) {
	var ds []time.Duration
	withRetry(5, func() float64 { return 0.5 }, func(d time.Duration) { ds = append(ds, d) },
		func(i int) time.Duration { return min(30*time.Second, time.Second<<i) })
	retrytest.AssertAttempts(t, retrytest.Waits(ds...), 5)
	if err := retrytest.CheckAttempts(retrytest.Waits(ds...), 6); err == nil {
		t.Errorf("CheckAttempts(5 attempts, 6) = nil, want an error (five attempts are not five retries)")
	}
}

// Seed 003: withBackoff(base 500ms, cap 8s): 500ms, 1s, 2s, 4s, 8s, 8s,
// and the first attempt immediate.

func backoff(attempts int, next func(i int) time.Duration) []time.Duration {
	var ds []time.Duration
	for i := range attempts - 1 {
		ds = append(ds, next(i))
	}
	return ds
}

func TestSeed003LadderAndCap(t *testing.T) {
	const base, maxDelay = 500 * time.Millisecond, 8 * time.Second
	good := backoff(7, func(i int) time.Duration { return min(maxDelay, base<<i) })
	retrytest.AssertDelays(t, retrytest.Waits(good...), 500*time.Millisecond, time.Second, 2*time.Second, 4*time.Second, 8*time.Second, 8*time.Second)
	retrytest.AssertDelaysWithin(t, retrytest.Waits(good...), retrytest.Policy{First: base, Growth: 2, Cap: maxDelay, Attempts: 7}.Windows()...)
	retrytest.AssertCappedAt(t, retrytest.Waits(good...), maxDelay)
	retrytest.AssertAttemptsAt(t, retrytest.Waits(good[:2]...), 0, 500*time.Millisecond, 1500*time.Millisecond)

	for _, bug := range []struct {
		name    string
		got     []time.Duration
		check   func([]time.Duration) error
		attempt int
	}{
		{"delay never increments", backoff(7, func(int) time.Duration { return base }),
			func(ds []time.Duration) error {
				return retrytest.CheckDelaysWithin(retrytest.Waits(ds...), retrytest.Policy{First: base, Growth: 2, Cap: maxDelay, Attempts: 7}.Windows()...)
			}, 3},
		{"clamp on the exponent, not the result", backoff(7, func(i int) time.Duration { return base << min(i, 5) }),
			func(ds []time.Duration) error { return retrytest.CheckCappedAt(retrytest.Waits(ds...), maxDelay) }, 7},
	} {
		err := bug.check(bug.got)
		if v, ok := errors.AsType[*retrytest.Violation](err); !ok || v.Attempt != bug.attempt {
			t.Errorf("%s: check = %v, want the first violation at attempt %d", bug.name, err, bug.attempt)
		}
	}

	// "Sleep, then try": the recorder sees a wait before attempt 1.
	sleepFirst := []recorder.Attempt{{Delay: base, At: base}, {Delay: time.Second, At: base + time.Second}}
	err := retrytest.CheckAttemptsAt(attemptsOnly(sleepFirst), 0, 500*time.Millisecond)
	if v, ok := errors.AsType[*retrytest.Violation](err); !ok || v.Attempt != 1 {
		t.Errorf("CheckAttemptsAt(sleep first) = %v, want the first violation at attempt 1", err)
	}
}
