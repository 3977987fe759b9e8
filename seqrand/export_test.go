package seqrand

import "sort"

// KnownNames lists every method of math/rand and math/rand/v2 that seqrand
// knows by name, as "math/rand/v2.uint64n".
func KnownNames() []string {
	var names []string
	for pkg, m := range map[string]map[string]site{pkgV2: v2Names, pkgV1: v1Names} {
		for fn := range m {
			names = append(names, pkg+fn)
		}
	}
	sort.Strings(names)
	return names
}

// Rename makes seqrand treat the methods named (as KnownNames spells them)
// as functions it does not know, as if a Go release had renamed them, until
// the function it returns is called. It empties the cache of call sites
// both times. Calibration is not redone: it keys lines by whatever function
// drew, so a rename does not change what it learns.
func Rename(names ...string) (restore func()) {
	unknown := map[string]bool{}
	for _, n := range names {
		unknown[n] = true
	}
	calibrated() // learn before the rename, as a real binary would have
	sites.Clear()
	renamed = func(pkg, fn string) bool { return unknown[pkg+fn] }
	return func() {
		renamed = nil
		sites.Clear()
	}
}
