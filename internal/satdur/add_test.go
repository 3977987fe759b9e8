package satdur_test

import (
	"math"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/satdur"
)

func TestAdd(t *testing.T) {
	const maxD, minD = time.Duration(math.MaxInt64), time.Duration(math.MinInt64)
	for _, tc := range []struct{ a, b, want time.Duration }{
		{time.Second, 2 * time.Second, 3 * time.Second},
		{time.Second, -2 * time.Second, -time.Second},
		{maxD, 1, maxD},
		{maxD, maxD, maxD},
		{maxD, time.Hour, maxD},
		{minD, -1, minD},
		{minD, minD, minD}, // wraps to exactly 0
		{maxD, minD, -1},
		{maxD, -time.Hour, maxD - time.Hour},
	} {
		if got := satdur.Add(tc.a, tc.b); got != tc.want {
			t.Errorf("Add(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := satdur.Add(tc.b, tc.a); got != tc.want {
			t.Errorf("Add(%d, %d) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestSum(t *testing.T) {
	for _, tc := range []struct {
		ds   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{time.Second, 500 * time.Millisecond}, 1500 * time.Millisecond},
		{[]time.Duration{math.MaxInt64, time.Hour}, math.MaxInt64},
		{[]time.Duration{math.MaxInt64, time.Hour, time.Hour}, math.MaxInt64},
		{[]time.Duration{math.MinInt64, -time.Hour}, math.MinInt64},
	} {
		if got := satdur.Sum(tc.ds); got != tc.want {
			t.Errorf("Sum(%v) = %v, want %v", tc.ds, got, tc.want)
		}
	}
}
