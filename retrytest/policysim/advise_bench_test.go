package policysim_test

import (
	"testing"

	"github.com/retrykit/retrykit/retrytest/policysim"
)

// BenchmarkAdvise measures Advise in seed 000's scenario from the seed's
// fixed policy, as fleetsim asks it: every dimension searched
// (seed000_all), and with the cap and the attempts kept
// (seed000_keep_cap_attempts). simulations/op counts the fleet
// simulations of the search, each of 11,000 jobs.
func BenchmarkAdvise(b *testing.B) {
	for _, bc := range []struct {
		name string
		s    policysim.Search
	}{
		{"seed000_all", policysim.Search{MaxGaveUp: policysim.GaveUpAsBase}},
		{"seed000_keep_cap_attempts", policysim.Search{Keep: policysim.DimCap | policysim.DimAttempts, MaxGaveUp: policysim.GaveUpAsBase}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var advice *policysim.Advice
			for b.Loop() {
				var err error
				if advice, err = policysim.Advise(seed000Fleet(7), seedFixedPolicy, bc.s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(advice.Simulations), "simulations/op")
		})
	}
}
