package retrytest

import "io"

// Hooks for the leak tests in package retrytest_test.
var (
	LeakChecker = leakChecker
	LeakHints   = leakHints
)

// SetExampleOutput makes t print to w instead of standard output.
func SetExampleOutput(t *ExampleT, w io.Writer) { t.out = w }
