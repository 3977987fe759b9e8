package retrytest_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// Seed 000's pure policy, in Go: base 5s, cap 1h, 12 attempts, full
// jitter under the cap.
const (
	seedBase        = 5 * time.Second
	seedCap         = time.Hour
	seedMaxAttempts = 12
)

func seedDecide(failed int, rng *rand.Rand) retrytest.Decision {
	if failed+1 >= seedMaxAttempts {
		return retrytest.Decision{Reason: "exhausted"}
	}
	ceiling := min(seedCap, seedBase<<failed)
	return retrytest.Decision{Retry: true, Delay: time.Duration(rng.Float64() * float64(ceiling)), Reason: "backoff"}
}

func TestRunPolicySeed000(t *testing.T) {
	windows := retrytest.Exponential(seedBase, 2, seedCap, seedMaxAttempts, retrytest.WithFullJitter())
	for seed := range uint64(50) {
		run, err := retrytest.RunPolicy(seedDecide, seed)
		if err != nil {
			t.Fatalf("RunPolicy(seed %d) = %v", seed, err)
		}
		if !retrytest.AssertDelaysWithin(t, run, windows...) {
			t.Fatalf("seed %d", seed)
		}
		if got, want := run.Stop(), (retrytest.PolicyStop{Attempt: seedMaxAttempts, Reason: "exhausted"}); got != want {
			t.Errorf("seed %d: Stop() = %+v, want %+v", seed, got, want)
		}
	}
}

// The same seed gives the same run: RunPolicy's source is PCG(seed, 0),
// the stream of seqrand.Seeded(seed).
func TestRunPolicyDeterministic(t *testing.T) {
	a, _ := retrytest.RunPolicy(seedDecide, 7)
	b, _ := retrytest.RunPolicyRand(seedDecide, rand.New(rand.NewPCG(7, 0)))
	if !slices.Equal(a.Delays(), b.Delays()) {
		t.Errorf("RunPolicy(7) = %v, RunPolicyRand(PCG(7, 0)) = %v, want equal", a.Delays(), b.Delays())
	}
	c, _ := retrytest.RunPolicy(seedDecide, 8)
	if slices.Equal(a.Delays(), c.Delays()) {
		t.Errorf("seeds 7 and 8 gave the same delays %v", a.Delays())
	}
}

// constSource is a rand.Source that always returns the same value: 0 makes
// Float64 return 0, all ones the largest float64 below 1.
type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }

// Endpoint sources pin both edges of every window.
func TestRunPolicyEndpoints(t *testing.T) {
	low, _ := retrytest.RunPolicyRand(seedDecide, rand.New(constSource(0)))
	if got := low.Delays(); slices.ContainsFunc(got, func(d time.Duration) bool { return d != 0 }) {
		t.Errorf("delays at Min = %v, want all 0s", got)
	}
	high, _ := retrytest.RunPolicyRand(seedDecide, rand.New(constSource(^uint64(0))))
	retrytest.AssertDelaysWithin(t, high, retrytest.Exponential(seedBase, 2, seedCap, seedMaxAttempts, retrytest.WithFullJitter(), retrytest.WithExclusiveMax(), retrytest.WithTolerance(time.Microsecond))...)
	if got := high.Delays()[len(high.Delays())-1]; got < seedCap-time.Microsecond {
		t.Errorf("last delay at Max = %v, want just under the 1h cap", got)
	}
}

func TestPolicyRunAccessors(t *testing.T) {
	p := func(failed int, _ *rand.Rand) retrytest.Decision {
		switch failed {
		case 0:
			return retrytest.Decision{Retry: true, Delay: 7 * time.Second, Reason: "retry-after"}
		case 1:
			return retrytest.Decision{Retry: true, Delay: 10 * time.Second, Reason: "backoff"}
		}
		return retrytest.Decision{Reason: "exhausted"}
	}
	run, err := retrytest.RunPolicy(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := run.Reasons(), []string{"retry-after", "backoff", "exhausted"}; !slices.Equal(got, want) {
		t.Errorf("Reasons() = %q, want %q", got, want)
	}
	if got, want := run.Stop(), (retrytest.PolicyStop{Attempt: 3, Reason: "exhausted"}); got != want {
		t.Errorf("Stop() = %+v, want %+v", got, want)
	}
	retrytest.AssertDelays(t, run, 7*time.Second, 10*time.Second)
	retrytest.AssertAttemptsAt(t, run, 0, 7*time.Second, 17*time.Second)
	want := []retrytest.Attempt{
		{Index: 1, Result: "retry: retry-after"},
		{Index: 2, Delay: 7 * time.Second, At: 7 * time.Second, Result: "retry: backoff"},
		{Index: 3, Delay: 10 * time.Second, At: 17 * time.Second, Result: "stop: exhausted"},
	}
	if got := run.Attempts(); !slices.Equal(got, want) {
		t.Errorf("Attempts() = %+v, want %+v", got, want)
	}
	golden.Check(t, "harness_policy_run", run.String()+"\n")
}

func TestRunPolicyFailures(t *testing.T) {
	forever := func(int, *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: true, Delay: time.Second, Reason: "backoff"}
	}
	for _, tc := range []struct {
		name      string
		run       func() (*retrytest.PolicyRun, error)
		decisions int
	}{
		{"runaway", func() (*retrytest.PolicyRun, error) { return retrytest.RunPolicy(forever, 3) }, retrytest.DefaultAttemptLimit},
		{"runaway with a limit", func() (*retrytest.PolicyRun, error) {
			return retrytest.RunPolicy(forever, 3, retrytest.WithAttemptLimit(3))
		}, 3},
		{"panic", func() (*retrytest.PolicyRun, error) {
			return retrytest.RunPolicy(func(f int, _ *rand.Rand) retrytest.Decision {
				if f == 2 {
					panic("index out of range")
				}
				return retrytest.Decision{Retry: true, Delay: time.Second}
			}, 3)
		}, 2},
		{"nil policy", func() (*retrytest.PolicyRun, error) { return retrytest.RunPolicy(nil, 3) }, 0},
		{"nil rand", func() (*retrytest.PolicyRun, error) { return retrytest.RunPolicyRand(forever, nil) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := tc.run()
			if err == nil || run == nil {
				t.Fatalf("run = %v, %v, want a run and an error", run, err)
			}
			if got := len(run.Decisions); got != tc.decisions {
				t.Errorf("len(Decisions) = %d, want %d", got, tc.decisions)
			}
			if got := run.Stop(); got != (retrytest.PolicyStop{}) {
				t.Errorf("Stop() = %+v, want the zero PolicyStop: the policy never stopped", got)
			}
			if tc.name == "runaway" && !errors.Is(err, retrytest.ErrRunaway) {
				t.Errorf("err = %v, want one wrapping ErrRunaway", err)
			}
			text := err.Error() + "\n"
			if tc.name != "runaway" {
				text += run.String() + "\n"
			}
			golden.Check(t, "harness_policy_"+map[string]string{
				"runaway": "runaway", "runaway with a limit": "runaway_limit", "panic": "panic",
				"nil policy": "nil", "nil rand": "nil_rand",
			}[tc.name], text)
		})
	}
	if got := panicText(func() { retrytest.WithAttemptLimit(0) }); got != "retrytest: WithAttemptLimit: limit 0, want >= 1" {
		t.Errorf("WithAttemptLimit(0) panicked %q", got)
	}
}
