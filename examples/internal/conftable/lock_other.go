//go:build !unix

package conftable

import "os"

// lock does nothing where flock is missing: run -update with -p 1.
func lock(*os.File) error { return nil }
