package retrytest_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

var errRateLimited = errors.New("429 Too Many Requests")

// retryLoop is seed 001's withRetry with the sleep and random source
// injected: full jitter under min(30s, 1s·2^i), every attempt rate limited.
// sleepFirst reproduces the "sleep, then try" bug.
func retryLoop(rec *recorder.Recorder, attempts int, random func() float64, sleepFirst bool) {
	for i := range attempts {
		ceiling := min(30*time.Second, time.Second<<i)
		if sleepFirst {
			rec.Sleep(time.Duration(math.Floor(random() * float64(ceiling))))
		}
		rec.Attempt()
		rec.AttemptResult(errRateLimited)
		if i == attempts-1 {
			return
		}
		if !sleepFirst {
			rec.Sleep(time.Duration(math.Floor(random() * float64(ceiling))))
		}
	}
}

func TestWithRecorder(t *testing.T) {
	windows := retrytest.Policy{First: time.Second, Growth: 2, Cap: 30 * time.Second, Jitter: retrytest.FullJitter, OpenTop: true, Attempts: 5}.Windows()
	for _, r := range []float64{0, math.Nextafter(1, 0)} {
		rec := recorder.New()
		retryLoop(rec, 5, func() float64 { return r }, false)
		retrytest.AssertDelaysWithin(t, rec, windows...)
		retrytest.AssertAttempts(t, rec, 5)
		if len(rec.Delays()) != 4 {
			t.Errorf("recorded %d delays, want 4", len(rec.Delays()))
		}
	}

	rec := recorder.New()
	retryLoop(rec, 3, func() float64 { return 0.5 }, true)
	err := retrytest.CheckDelaysWithin(rec, windows[:2]...)
	golden.Check(t, "recorder_sleep_first", err.Error()+"\n")
}

// TestRecorderWithoutAttemptMarks reads a recorder whose code only sleeps:
// with no attempts marked, its delays are the schedule.
func TestRecorderWithoutAttemptMarks(t *testing.T) {
	rec := recorder.New()
	for _, d := range []time.Duration{500 * time.Millisecond, time.Second} {
		rec.Sleep(d)
	}
	retrytest.AssertDelays(t, rec, 500*time.Millisecond, time.Second)
	retrytest.AssertAttempts(t, rec, 3)
	retrytest.AssertAttemptsAt(t, rec, 0, 500*time.Millisecond, 1500*time.Millisecond)
}
