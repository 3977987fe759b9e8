package golden_test

import (
	"fmt"

	"github.com/retrykit/retrykit/internal/golden"
)

func ExampleDiff() {
	fmt.Print(golden.Diff("attempt 1\nattempt 2\nattempt 3\n", "attempt 1\nattempt 3\nattempt 4\n"))
	// Output:
	//   attempt 1
	// - attempt 2
	//   attempt 3
	// + attempt 4
}
