package presets_test

import (
	"fmt"

	"github.com/retrykit/retrykit/examples/fleetsim/presets"
)

// The windows of the first retries of each framework's default, as the
// fleet simulation draws them.
func Example() {
	for _, p := range presets.All() {
		fmt.Printf("%s: %s\n", p.Title, p.About)
		for k := 1; k <= 3; k++ {
			fmt.Printf("  retry %d: %v\n", k, p.Window(k))
		}
	}
	// Output:
	// River's default: n^4 s ±10% after the n-th error, 25 attempts (24 retries)
	//   retry 1: [900ms, 1.1s]
	//   retry 2: [14.4s, 17.6s]
	//   retry 3: [1m12.9s, 1m29.1s]
	// asynq's default: n^4 + 15 + U{0..29}·(n+1) s for the retry after n, 26 attempts (25 retries)
	//   retry 1: [15s, 44s]
	//   retry 2: [16s, 1m14s]
	//   retry 3: [31s, 1m58s]
}
