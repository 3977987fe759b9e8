package policysim_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// seedFixed is seed 000's fixed policy: 5s doubling under a 1h cap, full
// jitter, 13 attempts (its decide stops at attempt >= 12, counting from 0).
var seedFixed = retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13}.Decide

// BenchmarkFleet measures Fleet.Simulate. seed000 is the seed's scenario,
// and seed000_x100 the same with a hundred times the jobs; 1M_jobs_x12
// makes every one of a million jobs retry 12 times (they all fail at once,
// before an outage longer than the whole ladder) and give up.
// requests/op counts the requests simulated; B/op shows that memory does
// not grow with the jobs (except with Overload, which holds the jobs
// waiting after recovery).
func BenchmarkFleet(b *testing.B) {
	for _, bc := range []struct {
		name  string
		fleet policysim.Fleet
	}{
		{"seed000", policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: seedFixed, Seed: 7}},
		{"seed000_x100", policysim.Fleet{Jobs: 1_100_000, Outage: 2 * time.Hour, Decide: seedFixed, Seed: 7}},
		{"1M_jobs_x12", policysim.Fleet{Jobs: 1_000_000, Outage: 24 * time.Hour, AllAtOnce: true, Decide: seedFixed, Seed: 7}},
		{"seed000_overload", policysim.Fleet{Jobs: 11000, Outage: 2 * time.Hour, Decide: seedFixed, Seed: 7, Capacity: 600, Overload: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var load *policysim.Load
			for b.Loop() {
				var err error
				if load, err = bc.fleet.Simulate(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(load.Requests), "requests/op")
		})
	}
}
