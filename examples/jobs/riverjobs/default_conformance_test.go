package riverjobs_test

import (
	"crypto/x509"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// riverDefault is River's default retry policy as the contract states
// it (river@v0.51.2 internal/retrypolicy/default.go:37-105): for a job's
// e-th error the next attempt runs e⁴ seconds later, give or take 10%
// drawn from rand.Float64 — both ends in: Float64 never returns 1, but
// at the draw just under it the float rounds onto 1.1·e⁴ s for e = 1 and
// 2 — and River's default MaxAttempts, 25 (river.MaxAttemptsDefault), stops
// after 24 retries. No cap: the 24th retry waits about 3.8 days. River
// draws the jitter from math/rand/v2's global source, which no seam
// reaches, so the contract says OwnRandom and the suite reads a sample
// of its waits. The worker is the adapter's, so the outcomes it
// classifies are the seed's.
var riverDefault = conformance.Spec{
	Policy:       retrytest.Policy{Ceilings: riverCeilings(0), Jitter: retrytest.FactorJitter, JitterFactor: 0.1, Attempts: 25},
	OwnRandom:    true,
	Retryable:    []int{408, 429, 500, 501, 502, 503, 504},
	Permanent:    []int{400, 401, 403, 404, 410, 422},
	PermanentErr: x509.UnknownAuthorityError{},
}

// riverCeilings are the middles of River's 24 windows, e⁴ seconds for
// e = 1…24, with e shifted by shift: 1 is the exponent off by one.
func riverCeilings(shift int) []time.Duration {
	c := make([]time.Duration, 24)
	for k := 1; k <= 24; k++ {
		e := k + shift
		c[k-1] = time.Duration(e*e*e*e) * time.Second
	}
	return c
}

// defaultPolicy is River's own default policy, the delay it schedules.
// Outside a client it reads the wall clock (river@v0.51.2
// retry_policy.go:51-57), which moves between any read of a test and its
// own: a delay measured against the wall clock is off by the nanoseconds
// between the reads, and a draw that close to an edge of its window would
// fail or pass by chance. In a synctest bubble the clock stands still
// while the goroutine runs, so the reads before and after NextRetry are
// its own instant; defaultPolicy panics if they are not (called outside
// a bubble), rather than guess.
func defaultPolicy(job *rivertype.JobRow, _ *rand.Rand) time.Duration {
	p := &river.DefaultClientRetryPolicy{}
	before := time.Now()
	at := p.NextRetry(job)
	if after := time.Now(); !after.Equal(before) {
		panic("River's default policy read the wall clock while it moved (" + after.Sub(before).String() + "): call it in a synctest bubble")
	}
	return at.Sub(before)
}

// River's default policy, through its own NextRetry, against the whole
// contract of a pure policy: every wait of a sample within its window
// and reaching every quarter of it, the attempts, the statuses. The
// suite runs in a synctest bubble, where River's wall clock stands
// still; CheckPolicy is the form that runs there (a test's subtests
// cannot), and its report is the failure.
func TestRiverDefaultPolicyConforms(t *testing.T) {
	rep := checkRiverDefault(t, riverDefault)
	if !rep.Passed() {
		t.Errorf("River's default policy against its contract:\n%s", rep)
	}
	t.Logf("River's default policy against its contract:\n%s", rep)
}

// checkRiverDefault runs the suite on River's default policy against
// spec, in a bubble.
func checkRiverDefault(t *testing.T, spec conformance.Spec) *conformance.Report {
	t.Helper()
	var rep *conformance.Report
	synctest.Test(t, func(t *testing.T) {
		var err error
		rep, err = conformance.CheckPolicy(spec, riverDecide(river.MaxAttemptsDefault, defaultPolicy))
		if err != nil {
			t.Fatal(err)
		}
	})
	return rep
}

// The contract above is River's and not a looser one: each contract one
// mistake away from it fails against River's default, on the property
// that judges the mistake.
func TestRiverDefaultConformanceIsExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*conformance.Spec)
		want string
	}{
		{"the exponent off by one", func(s *conformance.Spec) { s.Policy.Ceilings = riverCeilings(1) }, "WaitsInWindows"},
		{"±14%", func(s *conformance.Spec) { s.Policy.JitterFactor = 0.14 }, "WaitsInWindows"},
		{"±8%", func(s *conformance.Spec) { s.Policy.JitterFactor = 0.08 }, "WaitsInWindows"},
		{"24 attempts", func(s *conformance.Spec) { s.Policy.Attempts = 24 }, "AttemptCount"},
		{"26 attempts", func(s *conformance.Spec) {
			s.Policy.Attempts = 26
			s.Policy.Ceilings = append(riverCeilings(0), 25*25*25*25*time.Second)
		}, "AttemptCount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := riverDefault
			spec.Policy.Ceilings = slices.Clone(spec.Policy.Ceilings)
			tc.edit(&spec)
			if got := checkRiverDefault(t, spec).Failed(); !slices.Contains(got, tc.want) {
				t.Errorf("River's default against the contract with %s: failed %q, want %s among them", tc.name, got, tc.want)
			}
		})
	}
	// The sample's resolution is an eighth of a window: ±12% leaves a
	// twelfth of it unreached at each edge, inside the eighths there, and
	// passes. The seam's Min and Max sources pin the edges exactly; River
	// offers no seam for them.
	t.Run("±12% is within an eighth", func(t *testing.T) {
		spec := riverDefault
		spec.Policy.JitterFactor = 0.12
		if rep := checkRiverDefault(t, spec); !rep.Passed() {
			t.Errorf("River's default against ±12%%: %q failed, want a pass: the sample's resolution is an eighth\n%s", rep.Failed(), rep)
		}
	})
}
