//go:build !unix

package sdktable

import "os"

// lock does nothing where flock is missing: run -update with -p 1.
func lock(*os.File) error { return nil }
