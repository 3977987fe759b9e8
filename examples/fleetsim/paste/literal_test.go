package paste

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// Literal writes each field the policy sets, aligned as gofmt aligns
// them, in the order of retrytest.Policy's fields.
func TestGoLiteral(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: 15 * time.Second, Growth: 4, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
			"retrytest.Policy{\n\tFirst:    15 * time.Second,\n\tGrowth:   4,\n\tCap:      time.Hour,\n\tJitter:   retrytest.FullJitter,\n\tAttempts: 13,\n}\n"},
		{retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Minute, Jitter: retrytest.AddedJitter, JitterAmount: 5 * time.Second, CapAfterJitter: true, Attempts: 200},
			"retrytest.Policy{\n\tFirst:          5 * time.Second,\n\tGrowth:         2,\n\tCap:            time.Minute,\n\tJitter:         retrytest.AddedJitter,\n\tJitterAmount:   5 * time.Second,\n\tCapAfterJitter: true,\n\tAttempts:       200,\n}\n"},
		{retrytest.Policy{First: 2500 * time.Millisecond, Growth: 1.5, Cap: 90 * time.Minute, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, FirstExponent: 1, OpenTop: true, Tolerance: time.Nanosecond},
			"retrytest.Policy{\n\tFirst:         2500 * time.Millisecond,\n\tGrowth:        1.5,\n\tCap:           90 * time.Minute,\n\tJitter:        retrytest.FactorJitter,\n\tJitterFactor:  0.5,\n\tFirstExponent: 1,\n\tOpenTop:       true,\n\tTolerance:     1,\n}\n"},
		{retrytest.Policy{Ceilings: []time.Duration{500 * time.Millisecond, time.Second}, Cap: 5 * time.Second, Jitter: retrytest.ScaleJitter, JitterScale: [2]float64{0.8, 1.3}, Floor: 100 * time.Millisecond, Attempts: 4},
			"retrytest.Policy{\n\tCeilings:    []time.Duration{500 * time.Millisecond, time.Second},\n\tCap:         5 * time.Second,\n\tJitter:      retrytest.ScaleJitter,\n\tJitterScale: [2]float64{0.8, 1.3},\n\tFloor:       100 * time.Millisecond,\n\tAttempts:    4,\n}\n"},
		{retrytest.Policy{Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second}, "retrytest.Policy{\n\tJitter:       retrytest.StepJitter,\n\tJitterAmount: 29 * time.Second,\n}\n"},
		{retrytest.Policy{Jitter: retrytest.DownJitter, JitterFactor: 0.25}, "retrytest.Policy{\n\tJitter:       retrytest.DownJitter,\n\tJitterFactor: 0.25,\n}\n"},
		{retrytest.Policy{}, "retrytest.Policy{\n}\n"},
	} {
		if got := Literal(tc.p); got != tc.want {
			t.Errorf("Literal(%v) =\n%s\nwant\n%s", tc.p, got, tc.want)
		}
	}
}
