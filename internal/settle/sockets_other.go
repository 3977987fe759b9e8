//go:build !linux

package settle

// socketsQuiet cannot look at the process's sockets on this platform, so a
// goroutine waiting on the network never counts as idle.
func socketsQuiet() (quiet bool, why string, sig uint64) {
	return false, "waiting on the network never counts as settled on this platform (only Linux can tell that no data is on its way)", 0
}
