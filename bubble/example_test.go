package bubble_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
)

// A budget built before synctest.Test captured real time.
func ExampleCheckTime() {
	deadline := time.Date(2026, 11, 30, 13, 42, 0, 0, time.UTC) // time.Now().Add(budget), outside the bubble
	fmt.Println(bubble.CheckTime(deadline))
	fmt.Println(bubble.CheckTime(fakeclock.Epoch.Add(15 * time.Minute)))
	// Output:
	// bubble: time 2026-11-30T13:42:00Z is real time, not bubble time (a synctest bubble's clock starts at 2000-01-01T00:00:00Z): it was read outside the bubble. A policy or context that captures time.Now when it is built (a deadline, a total budget such as sethvargo/go-retry's WithMaxDuration) must be built inside the function passed to synctest.Test, or its budget is measured against the wrong clock
	// <nil>
}
