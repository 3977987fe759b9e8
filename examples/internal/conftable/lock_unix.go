//go:build unix

package conftable

import (
	"os"
	"syscall"
)

// lock takes an exclusive lock on f until it is closed.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }
