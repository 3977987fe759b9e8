package presets_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/fleetsim/presets"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
	"github.com/retrykit/retrykit/seqrand"
)

// Each preset's Decide draws inside its windows and reaches both edges
// of each at the endpoint sources, and stops after the last attempt.
func TestPresetsDecideWithinTheirWindows(t *testing.T) {
	for _, p := range presets.All() {
		t.Run(p.Name, func(t *testing.T) {
			for _, src := range seqrand.Endpoints() {
				job, err := policysim.RunRand(p.Decide, rand.New(src))
				if err != nil {
					t.Fatal(err)
				}
				retrytest.AssertDelaysWithin(t, job, p.Windows()...)
				var edges []retrytest.Window
				for _, w := range p.Windows() {
					if src.String() == seqrand.Min().String() {
						edges = append(edges, retrytest.Window{Min: w.Min, Max: w.Min})
					} else {
						edges = append(edges, retrytest.Window{Min: w.Max, Max: w.Max})
					}
				}
				retrytest.AssertDelaysWithin(t, job, edges...)
			}
		})
	}
}

// The windows the package doc and the frameworks' formulas give, at the
// first, a middle and the last retry, and the spans in all.
func TestPresetWindows(t *testing.T) {
	river, asynq := presets.River(), presets.Asynq()
	for _, tc := range []struct {
		p    presets.Preset
		k    int
		want retrytest.Window
	}{
		{river, 1, retrytest.Window{Min: 900 * time.Millisecond, Max: 1100 * time.Millisecond}},             // [0.9·1⁴, 1.1·1⁴] s
		{river, 2, retrytest.Window{Min: 14400 * time.Millisecond, Max: 17600 * time.Millisecond}},          // [0.9·2⁴, 1.1·2⁴] s
		{river, 24, retrytest.Window{Min: 298598400 * time.Millisecond, Max: 364953600 * time.Millisecond}}, // [0.9·24⁴, 1.1·24⁴] s
		{asynq, 1, retrytest.Window{Min: 15 * time.Second, Max: 44 * time.Second}},                          // 0⁴+15, +29·1
		{asynq, 2, retrytest.Window{Min: 16 * time.Second, Max: 74 * time.Second}},                          // 1⁴+15, +29·2
		{asynq, 25, retrytest.Window{Min: 331791 * time.Second, Max: 332516 * time.Second}},                 // 24⁴+15, +29·25
	} {
		if got := tc.p.Window(tc.k); got != tc.want {
			t.Errorf("%s: Window(%d) = %v, want %v", tc.p.Name, tc.k, got, tc.want)
		}
	}
	if river.Attempts != 25 || asynq.Attempts != 26 {
		t.Errorf("Attempts: river %d, asynq %d; want 25 (MaxAttemptsDefault) and 26 (MaxRetry 25)", river.Attempts, asynq.Attempts)
	}
}
