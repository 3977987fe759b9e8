package schedcheck

import "time"

// Offsets returns the offsets and results of n attempts, the ith of
// which started at the time attempt(i) gives: offsets count from origin,
// or from the first attempt when origin is zero. The slices are never nil.
// It is the schedule of a recorder.Stopwatch and of an httpscript.Transport.
func Offsets(origin time.Time, n int, attempt func(i int) (time.Time, string)) (at []time.Duration, results []string) {
	at, results = make([]time.Duration, n), make([]string, n)
	if n == 0 {
		return at, results
	}
	start := origin
	if start.IsZero() {
		start, _ = attempt(0)
	}
	for i := range n {
		t, r := attempt(i)
		at[i], results[i] = t.Sub(start), r
	}
	return at, results
}
