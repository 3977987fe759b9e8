package recorder_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// A Stopwatch times attempts of code that has no HTTP seam; here on a fake
// clock, usually inside a synctest bubble on time.Now.
func ExampleStopwatch() {
	clk := clockwork.NewFakeClock()
	sw := recorder.NewStopwatch().WithClock(clk)
	for i, d := range []time.Duration{0, 500 * time.Millisecond, time.Second} {
		clk.Advance(d)
		sw.Attempt()
		if i < 2 {
			sw.AttemptResult(errors.New("503 Service Unavailable"))
		} else {
			sw.AttemptResult(nil)
		}
	}
	fmt.Println(retrytest.CheckAttemptsAt(sw, 0, 500*time.Millisecond, 1500*time.Millisecond))
	fmt.Println(sw)
	// Output:
	// <nil>
	// stopwatch: 3 attempts
	//     attempt  delay  at     result
	//     1        0s     0s     503 Service Unavailable
	//     2        500ms  500ms  503 Service Unavailable
	//     3        1s     1.5s   ok
}
