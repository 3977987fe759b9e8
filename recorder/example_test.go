package recorder_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// retryableError is seed 001's RetryableError: a 429 or a 503 worth
// retrying.
type retryableError struct{ status int }

func (e retryableError) Error() string { return fmt.Sprintf("retryable %d", e.status) }

// withRetry is seed 001's retry loop, the code under test: up to five
// attempts; after a retryable error, a full-jitter wait in [0, ceiling),
// where the ceiling doubles from 1s and is capped at 30s; any other error
// is returned at once. Its sleep and random functions are its seams.
func withRetry(fn func(attempt int) error, sleep func(time.Duration), random func() float64) error {
	const attempts, base, maxDelay = 5, time.Second, 30 * time.Second
	for i := 0; ; i++ {
		err := fn(i)
		if _, retryable := err.(retryableError); !retryable || i == attempts-1 {
			return err
		}
		ceiling := min(maxDelay, base<<i)
		sleep(time.Duration(random() * float64(ceiling)))
	}
}

func half() float64 { return 0.5 }

// Seed 001: five attempts, not five retries, and four waits between them.
func Example_givesUpAfterFiveAttempts() {
	rec := recorder.New()
	err := withRetry(func(int) error { rec.Attempt(); return retryableError{429} }, rec.Sleep, half)
	if n, waits := len(rec.Attempts()), len(rec.Delays()); n != 5 || waits != 4 {
		fmt.Printf("got %d attempts and %d waits, want 5 and 4\n", n, waits)
	}
	fmt.Println(err)
	fmt.Println(rec)
	// Output:
	// retryable 429
	// recorder: 5 attempts, 4 delays, total 7.5s
	//   attempt  delay  at
	//   1        0s     0s
	//   2        500ms  500ms
	//   3        1s     1.5s
	//   4        2s     3.5s
	//   5        4s     7.5s
}

// Seed 001: a 400 is not retried; one attempt, no wait.
func Example_notRetried() {
	rec := recorder.New()
	err := withRetry(func(int) error { rec.Attempt(); return errors.New("bad request") }, rec.Sleep, half)
	if len(rec.Attempts()) != 1 || len(rec.Delays()) != 0 {
		fmt.Println("a 400 was retried:", rec)
	}
	fmt.Println(err)
	// Output: bad request
}

// Seed 001: success on attempt 3 waited twice, and no more.
func Example_succeedsOnAttemptThree() {
	rec := recorder.New()
	err := withRetry(func(attempt int) error {
		rec.Attempt()
		if attempt < 2 {
			return retryableError{429}
		}
		return nil
	}, rec.Sleep, half)
	fmt.Println(err, rec.Delays())
	// Output: <nil> [500ms 1s]
}

// A sleep after the final attempt is waiting for nothing; the table shows it
// as a last row with no attempt.
func ExampleRecorder_String() {
	rec := recorder.New()
	for i := range 3 {
		rec.Attempt()
		rec.AttemptResult(errors.New("503 Service Unavailable"))
		rec.Sleep(time.Second << i) // the bug: also sleeps after the last attempt
	}
	fmt.Println(rec)
	// Output:
	// recorder: 3 attempts, 3 delays, total 7s; 1 delay (4s) after the last attempt
	//   attempt  delay  at  result
	//   1        0s     0s  503 Service Unavailable
	//   2        1s     1s  503 Service Unavailable
	//   3        2s     3s  503 Service Unavailable
	//   -        4s     7s  (1 delay after the last attempt)
}

// Attempts reports each attempt's delay and its offset in virtual time.
func ExampleRecorder_Attempts() {
	rec := recorder.New()
	rec.Attempt()
	rec.Sleep(time.Second)
	rec.Sleep(500 * time.Millisecond) // two waits before one attempt are summed
	rec.Attempt()
	rec.AttemptResult(nil)
	fmt.Printf("%+v\n", rec.Attempts())
	// Output: [{Index:1 At:0s Delay:0s Result:} {Index:2 At:1.5s Delay:1.5s Result:ok}]
}

// A context-aware sleep returns the context's error at once, and records
// nothing, when the context is already done.
func ExampleRecorder_SleepContext() {
	rec := recorder.New()
	ctx, cancel := context.WithCancel(context.Background())
	fmt.Println(rec.SleepContext(ctx, time.Second))
	cancel()
	fmt.Println(rec.SleepContext(ctx, 2*time.Second), rec.Delays())
	// Output:
	// <nil>
	// context canceled [1s]
}

// After fits timer seams such as avast/retry-go's retry.WithTimer: the
// channel has already fired, with the virtual time the wait ends at.
func ExampleRecorder_After() {
	rec := recorder.New()
	var timer interface {
		After(time.Duration) <-chan time.Time
	} = rec
	<-timer.After(time.Second)
	end := <-timer.After(500 * time.Millisecond)
	fmt.Println(end.Format(time.RFC3339Nano), rec.Delays())
	// Output: 2000-01-01T00:00:01.5Z [1s 500ms]
}

// A library that takes a timer (cenkalti/backoff's RetryNotifyWithTimer)
// runs its whole schedule at once on a recorder's Timer.
func ExampleRecorder_InstantTimer() {
	rec := recorder.New()
	timer := rec.InstantTimer()
	for _, d := range []time.Duration{500 * time.Millisecond, time.Second} {
		rec.Attempt()
		timer.Start(d)
		<-timer.C()
	}
	rec.Attempt()
	fmt.Println(rec.Delays(), rec.Attempts()[2].At)
	// Output:
	// [500ms 1s] 1.5s
}
