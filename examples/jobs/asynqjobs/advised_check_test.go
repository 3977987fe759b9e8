package asynqjobs_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// advised is the policy fleetsim advises for asynq's default, as its
// output states it: "15s x3, jitter [0s, k·29s] added at retry k under a
// 92h9m51s cap, 26 attempts (25 retries)" — the cap asynq's last window's
// bottom, 24⁴ + 15 s.
var advised = conformance.Spec{
	Policy:       retrytest.Policy{First: 15 * time.Second, Growth: 3, Cap: 331791 * time.Second, Jitter: retrytest.StepJitter, JitterAmount: 29 * time.Second, Attempts: 26},
	OwnRandom:    true, // the paste draws from math/rand/v2's global source
	Retryable:    contract.Retryable,
	Permanent:    contract.Permanent,
	PermanentErr: contract.PermanentErr,
}

// pasted is the pasted RetryDelayFunc, which draws from its own source.
func pasted(*rand.Rand) asynq.RetryDelayFunc { return AdvisedRetryDelay }

// The pasted code, compiled, through asynq's side of a failure, against
// the whole contract of the policy fleetsim printed with it.
func TestAdvisedPasteConforms(t *testing.T) {
	conformance.TestPolicy(t, advised, asynqDecide(25, pasted))
}

// The check bites: the paste against a policy one field away fails.
func TestAdvisedPasteConformsToNoOtherPolicy(t *testing.T) {
	for name, edit := range map[string]func(*retrytest.Policy){
		"x4":         func(p *retrytest.Policy) { p.Growth = 4 },
		"a 1h cap":   func(p *retrytest.Policy) { p.Cap = time.Hour },
		"25s a step": func(p *retrytest.Policy) { p.JitterAmount = 25 * time.Second },
	} {
		spec := advised
		edit(&spec.Policy)
		rep, err := conformance.CheckPolicy(spec, asynqDecide(25, pasted))
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Failed(); !slices.Contains(got, "WaitsInWindows") {
			t.Errorf("the paste against %s: failed %q, want WaitsInWindows among them", name, got)
		}
	}
}

// The code above is what fleetsim prints, byte for byte from its doc
// comment to its closing brace: a change to the advice or to the paste
// fails here until the copy is pasted again.
func TestAdvisedPasteIsFleetsims(t *testing.T) {
	const head = "advised, to paste as asynq's RetryDelayFunc:\n"
	out, err := os.ReadFile("../../fleetsim/testdata/preset_asynq.golden")
	if err != nil {
		t.Fatal(err)
	}
	_, printed, ok := strings.Cut(string(out), head)
	if !ok {
		t.Fatalf("fleetsim -preset asynq prints no %q", strings.TrimSpace(head))
	}
	printed = printed[:strings.Index(printed, "\n}\n")+3]
	src, err := os.ReadFile("advised_test.go")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), "// AdvisedRetryDelay is")
	if i < 0 || string(src[i:]) != printed {
		t.Errorf("advised_test.go does not end in fleetsim's paste; paste again from examples/fleetsim/testdata/preset_asynq.golden:\n%s", printed)
	}
}
