// Package failing is the mutation gate's subject whose test fails with no
// mutant planted: its test wants a ceiling the code never had, so every
// mutant would read as killed unless the gate runs the tests alone first.
package failing

// Ceiling returns min(limit, base·2^n).
func Ceiling(base, limit, n int) int {
	c := base << n
	return min(c, limit)
}
