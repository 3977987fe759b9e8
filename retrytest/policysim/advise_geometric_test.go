package policysim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// riverDefault is River's default policy (v0.51.2,
// internal/retrypolicy/default.go): e⁴ seconds ±10% for e errors so far,
// 25 attempts.
func riverDefault() retrytest.Policy {
	p := retrytest.Policy{Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 25}
	for e := 1; e <= 24; e++ {
		p.Ceilings = append(p.Ceilings, time.Duration(e*e*e*e)*time.Second)
	}
	return p
}

// A base whose ceilings are a table is simulated as it is, and the
// advice is geometric, searched around the nearest geometric policy: 1s
// growing ×1.74 (331776^(1/23) is 1.738) to River's 24⁴ s cap.
func TestAdviseNonGeometricBase(t *testing.T) {
	f := policysim.Fleet{Jobs: 2000, Outage: 2 * time.Hour, Seed: 7, Capacity: 60}
	advice, err := policysim.Advise(f, riverDefault(), policysim.Search{Keep: policysim.DimAttempts})
	if err != nil {
		t.Fatal(err)
	}
	want := retrytest.Policy{First: time.Second, Growth: 1.74, Cap: 331776 * time.Second, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, OpenTop: true, Attempts: 25}
	if got := advice.Nearest; got.String() != want.String() {
		t.Errorf("Nearest = %v, want %v", got, want)
	}
	if len(advice.Base.Policy.Ceilings) != 24 || advice.Base.Load == nil {
		t.Errorf("Base = %v, want River's table, simulated", advice.Base.Policy)
	}
	for _, p := range advice.Policies {
		if len(p.Policy.Ceilings) != 0 || p.Policy.First == 0 {
			t.Errorf("advised %v, want a geometric policy", p.Policy)
		}
	}
	// A table that falls has no geometric policy near it.
	falling := retrytest.Policy{Ceilings: []time.Duration{2 * time.Second, time.Second}, Attempts: 3}
	if _, err := policysim.Advise(f, falling, policysim.Search{}); err == nil ||
		!strings.Contains(err.Error(), "base Ceilings fall at retry 2 (1s after 2s): no geometric policy falls") {
		t.Errorf("a falling table: %v", err)
	}
	zero := retrytest.Policy{Ceilings: []time.Duration{0, time.Second}, Attempts: 3}
	if _, err := policysim.Advise(f, zero, policysim.Search{}); err == nil || !strings.Contains(err.Error(), "base Ceilings start at 0s") {
		t.Errorf("a table from 0: %v", err)
	}
}
