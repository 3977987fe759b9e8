//go:build !unix

package fakeclock_test

import "time"

// cpuTime returns 0: this system's CPU time is not read here.
func cpuTime() time.Duration { return 0 }
