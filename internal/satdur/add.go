package satdur

import (
	"math"
	"time"
)

// Add returns a+b, saturating at the largest or the smallest Duration
// instead of wrapping around.
func Add(a, b time.Duration) time.Duration {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// Sum adds up ds with [Add], left to right.
func Sum(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s = Add(s, d)
	}
	return s
}
