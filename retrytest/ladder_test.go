package retrytest_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/retrykit/retrykit/retrytest"
)

func exact(ds ...time.Duration) []retrytest.Window {
	ws := make([]retrytest.Window, len(ds))
	for i, d := range ds {
		ws[i] = win(d, d)
	}
	return ws
}

func TestExponential(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name string
		got  []retrytest.Window
		want []retrytest.Window
	}{
		{"seed 003: 500ms doubling to 8s", retrytest.Exponential(500*ms, 2, 8*s, 7),
			exact(500*ms, s, 2*s, 4*s, 8*s, 8*s)},
		{"no cap", retrytest.Exponential(s, 2, 0, 4), exact(s, 2*s, 4*s)},
		{"constant", retrytest.Exponential(s, 1, 0, 3), exact(s, s)},
		{"backoff v5 with RF 0 (retrylibs §10.3)", retrytest.Exponential(500*ms, 1.5, 3*s, 8),
			exact(500*ms, 750*ms, 1125*ms, 1687500*time.Microsecond, 2531250*time.Microsecond, 3*s, 3*s)},
		{"seed 001: full jitter", retrytest.Exponential(s, 2, 30*s, 5, retrytest.WithFullJitter()),
			[]retrytest.Window{win(0, s), win(0, 2*s), win(0, 4*s), win(0, 8*s)}},
		{"full jitter, half-open", retrytest.Exponential(s, 2, 30*s, 3, retrytest.WithFullJitter(), retrytest.WithExclusiveMax()),
			[]retrytest.Window{win(0, s-1), win(0, 2*s-1)}},
		{"half-open leaves exact windows", retrytest.Exponential(s, 2, 0, 2, retrytest.WithExclusiveMax()), exact(s)},
		{"equal jitter", retrytest.Exponential(s, 2, 3*s, 4, retrytest.WithEqualJitter()),
			[]retrytest.Window{win(500*ms, s), win(s, 2*s), win(1500*ms, 3*s)}},
		{"randomization factor, cap before jitter", retrytest.Exponential(s, 2, 2*s, 4, retrytest.WithRandomizationFactor(0.5)),
			[]retrytest.Window{win(500*ms, 1500*ms), win(s, 3*s), win(s, 3*s)}},
		{"randomization factor, cap after jitter", retrytest.Exponential(s, 2, 2*s, 4, retrytest.WithRandomizationFactor(0.5), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(500*ms, 1500*ms), win(s, 2*s), win(2*s, 2*s)}},
		{"retry-go FullJitterBackoffDelay: exponent 1, cap after", retrytest.Exponential(100*ms, 2, s, 6, retrytest.WithFullJitter(), retrytest.WithFirstExponent(1), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(0, 200*ms), win(0, 400*ms), win(0, 800*ms), win(0, s), win(0, s)}},
		{"additive jitter, cap before jitter", retrytest.Exponential(s, 2, 2*s, 4, retrytest.WithAdditiveJitter(500*ms)),
			[]retrytest.Window{win(s, 1500*ms), win(2*s, 2500*ms), win(2*s, 2500*ms)}},
		{"retry-go defaults: additive jitter, half-open, cap after", retrytest.Exponential(100*ms, 2, 500*ms, 5, retrytest.WithAdditiveJitter(100*ms), retrytest.WithExclusiveMax(), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(100*ms, 200*ms-1), win(200*ms, 300*ms-1), win(400*ms, 500*ms-1), win(500*ms, 500*ms)}},
		{"retry-go MaxDelay: the capped sum of a half-open draw reaches the cap", retrytest.Exponential(s, 2, 1200*ms, 3, retrytest.WithAdditiveJitter(500*ms), retrytest.WithExclusiveMax(), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(s, 1200*ms), win(1200*ms, 1200*ms)}},
		{"full jitter, half-open, cap after", retrytest.Exponential(s, 2, 1500*ms, 3, retrytest.WithFullJitter(), retrytest.WithExclusiveMax(), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(0, s-1), win(0, 1500*ms)}},
		{"absolute jitter, never below 0", retrytest.Exponential(s, 2, 0, 4, retrytest.WithAbsoluteJitter(1500*ms)),
			[]retrytest.Window{win(0, 2500*ms), win(500*ms, 3500*ms), win(2500*ms, 5500*ms)}},
		{"absolute jitter, cap after", retrytest.Exponential(s, 2, 3*s, 4, retrytest.WithAbsoluteJitter(500*ms), retrytest.WithCapAfterJitter()),
			[]retrytest.Window{win(500*ms, 1500*ms), win(1500*ms, 2500*ms), win(3*s, 3*s)}},
		{"sethvargo WithJitter: half-open", retrytest.Exponential(s, 1, 0, 2, retrytest.WithAbsoluteJitter(100*ms), retrytest.WithExclusiveMax()),
			[]retrytest.Window{win(900*ms, 1100*ms-1)}},
		{"zero additive jitter is exact", retrytest.Exponential(s, 2, 0, 3, retrytest.WithAdditiveJitter(0)), exact(s, 2*s)},
		{"first exponent 1", retrytest.Exponential(s, 2, 0, 3, retrytest.WithFirstExponent(1)), exact(2*s, 4*s)},
		{"tolerance", retrytest.Exponential(s, 2, 0, 3, retrytest.WithTolerance(1)),
			[]retrytest.Window{win(s-1, s+1), win(2*s-1, 2*s+1)}},
		{"tolerance never below 0", retrytest.Exponential(s, 2, 0, 2, retrytest.WithFullJitter(), retrytest.WithTolerance(time.Millisecond)),
			[]retrytest.Window{win(0, s+time.Millisecond)}},
		{"no attempts", retrytest.Exponential(s, 2, 0, 0), nil},
		{"one attempt has no delay", retrytest.Exponential(s, 2, 0, 1), nil},
		{"the same jitter twice is fine", retrytest.Exponential(s, 2, 0, 2, retrytest.WithFullJitter(), retrytest.WithFullJitter()), []retrytest.Window{win(0, s)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.got, "Exponential windows")
		})
	}
}

func TestExponentialSaturates(t *testing.T) {
	for _, opt := range []retrytest.LadderOption{retrytest.WithAdditiveJitter(math.MaxInt64), retrytest.WithAbsoluteJitter(math.MaxInt64)} {
		ws := retrytest.Exponential(time.Hour, 2, 0, 3, opt)
		if last := ws[len(ws)-1]; last.Min < 0 || last.Max != math.MaxInt64 {
			t.Errorf("Exponential with a huge jitter: last window = %v, want 0 <= Min and Max saturated", last)
		}
	}
	ws := retrytest.Exponential(time.Hour, 2, 0, 80, retrytest.WithRandomizationFactor(1), retrytest.WithTolerance(time.Second))
	for i, w := range ws {
		if w.Min < 0 || w.Max < w.Min {
			t.Fatalf("window %d = %v, want 0 <= Min <= Max", i+1, w)
		}
	}
	if last := ws[len(ws)-1]; last.Max != math.MaxInt64 {
		t.Errorf("last window = %v, want Max saturated at %v", last, time.Duration(math.MaxInt64))
	}
}

func TestExponentialPanics(t *testing.T) {
	for _, tc := range []struct {
		f    func()
		want string
	}{
		{func() { retrytest.Exponential(-1, 2, 0, 3) }, "retrytest: Exponential: negative base -1ns"},
		{func() { retrytest.Exponential(1, 0, 0, 3) }, "retrytest: Exponential: factor 0, want a number > 0"},
		{func() { retrytest.Exponential(1, math.NaN(), 0, 3) }, "retrytest: Exponential: factor NaN, want a number > 0"},
		{func() { retrytest.Exponential(1, math.Inf(1), 0, 3) }, "retrytest: Exponential: factor +Inf, want a number > 0"},
		{func() { retrytest.Exponential(1, 2, -time.Second, 3) }, "retrytest: Exponential: negative cap -1s (0 means no cap)"},
		{func() { retrytest.Exponential(1, 2, 0, -1) }, "retrytest: Exponential: negative attempts -1"},
		{func() { retrytest.Exponential(1, 2, 0, 3, retrytest.WithFullJitter(), retrytest.WithEqualJitter()) },
			"retrytest: Exponential: both WithFullJitter and WithEqualJitter given, want one jitter option"},
		{func() { retrytest.WithRandomizationFactor(1.5) }, "retrytest: WithRandomizationFactor: factor 1.5 outside [0, 1]"},
		{func() { retrytest.WithRandomizationFactor(math.NaN()) }, "retrytest: WithRandomizationFactor: factor NaN outside [0, 1]"},
		{func() { retrytest.WithFirstExponent(-1) }, "retrytest: WithFirstExponent: negative exponent -1"},
		{func() { retrytest.WithTolerance(-time.Nanosecond) }, "retrytest: WithTolerance: negative tolerance -1ns"},
		{func() { retrytest.WithAdditiveJitter(-time.Second) }, "retrytest: WithAdditiveJitter: negative jitter -1s"},
		{func() { retrytest.WithAbsoluteJitter(-time.Second) }, "retrytest: WithAbsoluteJitter: negative jitter -1s"},
		{func() {
			retrytest.Exponential(1, 2, 0, 3, retrytest.WithAdditiveJitter(1), retrytest.WithAbsoluteJitter(1))
		},
			"retrytest: Exponential: both WithAdditiveJitter and WithAbsoluteJitter given, want one jitter option"},
	} {
		got := func() (r any) {
			defer func() { r = recover() }()
			tc.f()
			return nil
		}()
		if got != tc.want {
			t.Errorf("panic = %v, want %q", got, tc.want)
		}
	}
}
