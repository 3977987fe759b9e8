package retrytest

import "io"

// SetExampleOutput makes t print to w instead of standard output.
func SetExampleOutput(t *ExampleT, w io.Writer) { t.out = w }
