package retrytest

// Hooks for the leak tests in package retrytest_test.
var (
	LeakChecker = leakChecker
	LeakHints   = leakHints
)
