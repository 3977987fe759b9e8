package riverjobs_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river/rivershared/riversharedtest"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/examples/jobs/riverjobs"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// pastedContract is the seed's contract for the pasted policy, which
// draws from math/rand/v2's global source.
func pastedContract() conformance.Spec {
	s := contract
	s.OwnRandom = true
	return s
}

// pastedPolicy is the pasted ClientRetryPolicy on River's time stub
// pinned at now, as a client gives it: the delay it schedules.
func pastedPolicy(now time.Time) func(*rivertype.JobRow, *rand.Rand) time.Duration {
	return func(job *rivertype.JobRow, _ *rand.Rand) time.Duration {
		stub := &riversharedtest.TimeStub{}
		stub.StubNow(now)
		p := &AdvisedRetryPolicy{}
		p.Time = stub
		return p.NextRetry(job).Sub(now)
	}
}

// The pasted code, compiled, through River's side of a failure, against
// the whole contract of the policy it was written from.
func TestAdvisedPasteConforms(t *testing.T) {
	conformance.TestPolicy(t, pastedContract(), riverDecide(riverjobs.MaxAttempts, pastedPolicy(t0)))
}

// The check bites: the paste against a policy one field away fails.
func TestAdvisedPasteConformsToNoOtherPolicy(t *testing.T) {
	for name, edit := range map[string]func(*retrytest.Policy){
		"x3":           func(p *retrytest.Policy) { p.Growth = 3 },
		"a 30m cap":    func(p *retrytest.Policy) { p.Cap = 30 * time.Minute },
		"equal jitter": func(p *retrytest.Policy) { p.Jitter = retrytest.EqualJitter },
	} {
		spec := pastedContract()
		edit(&spec.Policy)
		rep, err := conformance.CheckPolicy(spec, riverDecide(riverjobs.MaxAttempts, pastedPolicy(t0)))
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Failed(); !slices.Contains(got, "WaitsInWindows") {
			t.Errorf("the paste against %s: failed %q, want WaitsInWindows among them", name, got)
		}
	}
}

// The code above is fleetsim's paste, byte for byte from its doc comment
// on: a change to the paste fails here until it is pasted again.
func TestAdvisedPasteIsFleetsims(t *testing.T) {
	printed, err := os.ReadFile("../../fleetsim/paste/testdata/river_seed.golden")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("advised_test.go")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "// AdvisedRetryPolicy is")
	if i < 0 || string(src[i:]) != string(printed) {
		t.Errorf("advised_test.go does not end in fleetsim's paste; paste again from examples/fleetsim/paste/testdata/river_seed.golden:\n%s", printed)
	}
}
