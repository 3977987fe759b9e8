package schedcheck_test

import (
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// The engine behind CheckDelaysWithin and HaveDelaysWithin: read a
// schedule, check it, and print the report as each front end does.
func Example() {
	s := schedcheck.FromDelays([]time.Duration{100 * time.Millisecond, 450 * time.Millisecond})
	r := schedcheck.DelaysWithin(s, []schedcheck.Window{
		{Min: 50 * time.Millisecond, Max: 150 * time.Millisecond},
		{Min: 200 * time.Millisecond, Max: 400 * time.Millisecond},
	})
	fmt.Println(r.Passed(), r.MayChange())
	fmt.Println(r.Title)
	fmt.Print(r.Body("  ", true))
	fmt.Println(r.GomegaMessage("    ", "have delays within the given windows", false))
	// Output:
	// false false
	// retry schedule (3 attempts)
	//     attempt  delay  at     want
	//     1        0s     0s     0s
	//     2        100ms  100ms  [50ms, 150ms]
	//   > 3        450ms  550ms  [200ms, 400ms]  <-- delay 450ms outside [200ms, 400ms]
	// Expected
	//     retry schedule (3 attempts)
	//       attempt  delay  at     want
	//       1        0s     0s     0s
	//       2        100ms  100ms  [50ms, 150ms]
	//     > 3        450ms  550ms  [200ms, 400ms]  <-- delay 450ms outside [200ms, 400ms]
	// to have delays within the given windows: attempt 3 of 3: delay = 450ms, want within [200ms, 400ms]
}
