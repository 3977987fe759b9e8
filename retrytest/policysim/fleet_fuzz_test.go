package policysim_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// FuzzFleetSimulate runs small fleets with policies built from the input
// and checks what must hold of every load: each job recovers or gives up,
// the buckets count every request after recovery, the peak is theirs, and
// a second run gives the same load.
func FuzzFleetSimulate(f *testing.F) {
	f.Add(uint16(50), uint32(600), false, uint8(60), uint16(0), false, uint64(7), []byte{5, 10, 20, 40})
	f.Add(uint16(200), uint32(0), true, uint8(1), uint16(3), true, uint64(1), []byte{0, 0, 255})
	f.Add(uint16(1), uint32(1), false, uint8(0), uint16(1), true, uint64(0), []byte{})
	f.Fuzz(func(t *testing.T, jobs uint16, outageSec uint32, together bool, bucketSec uint8, capacity uint16, overload bool, seed uint64, ladder []byte) {
		if jobs == 0 || len(ladder) > 50 || (overload && capacity == 0) {
			return
		}
		// Each byte is a delay ceiling in seconds; the policy draws up to
		// it and gives up after the last one.
		policy := func(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
			if failed >= len(ladder) {
				return retrytest.Decision{}
			}
			c := int64(ladder[failed]) * int64(time.Second)
			return retrytest.Decision{Retry: true, Delay: time.Duration(rng.Int64N(c + 1))}
		}
		fl := policysim.Fleet{
			Jobs: int(jobs), Outage: time.Duration(outageSec%(48*3600)) * time.Second, AllAtOnce: together,
			Decide: policy, Seed: seed, Bucket: time.Duration(bucketSec) * time.Second, Capacity: int(capacity), Overload: overload,
		}
		l, err := fl.Simulate()
		if err != nil {
			t.Fatalf("Simulate() = %v", err)
		}
		after := 0
		for _, n := range l.Buckets {
			after += n
		}
		switch {
		case l.Recovered+l.GaveUp != l.Fleet.Jobs:
			t.Fatalf("%d recovered + %d gave up, want %d jobs", l.Recovered, l.GaveUp, l.Fleet.Jobs)
		case !overload && after != l.Recovered:
			t.Fatalf("%d requests after recovery, %d recovered, want one request each", after, l.Recovered)
		case after < l.Recovered || l.Requests < l.Fleet.Jobs || l.FailedRequests > l.Requests || l.Requests-l.FailedRequests != l.Recovered:
			t.Fatalf("requests %d (failed %d, after recovery %d) for %d jobs, %d recovered", l.Requests, l.FailedRequests, after, l.Fleet.Jobs, l.Recovered)
		case len(l.Buckets) > 0 && (l.Buckets[len(l.Buckets)-1] == 0 || l.Peak != slices.Max(l.Buckets) || l.Buckets[l.PeakBucket] != l.Peak):
			t.Fatalf("buckets %v, peak %d in bucket %d", l.Buckets, l.Peak, l.PeakBucket)
		case len(l.Buckets) == 0 && (l.Peak != 0 || l.DrainTime != 0):
			t.Fatalf("no buckets, but peak %d and drain time %s", l.Peak, l.DrainTime)
		case l.DrainTime < time.Duration(len(l.Buckets)-1)*l.Fleet.Bucket || l.DrainTime >= time.Duration(len(l.Buckets))*l.Fleet.Bucket && len(l.Buckets) > 0:
			t.Fatalf("drain time %s, want within the last bucket of %d", l.DrainTime, len(l.Buckets))
		case !overload && l.Overloaded != 0:
			t.Fatalf("%d buckets overloaded without Overload", l.Overloaded)
		}
		again, err := fl.Simulate()
		if err != nil || !equalLoads(l, again) {
			t.Fatalf("a second run gives %+v, %v, want %+v", again, err, l)
		}
	})
}
