package policysim_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/faket"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// Seed 000's pure policy, in Go: base 5s, cap 1h, 12 attempts, full
// jitter under the cap.
const (
	seedBase        = 5 * time.Second
	seedCap         = time.Hour
	seedMaxAttempts = 12
)

func seedDecide(failed int, _ retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	if failed+1 >= seedMaxAttempts {
		return retrytest.Decision{Reason: "exhausted"}
	}
	ceiling := min(seedCap, seedBase<<failed)
	return retrytest.Decision{Retry: true, Delay: time.Duration(rng.Float64() * float64(ceiling)), Reason: "backoff"}
}

// seedPolicy is seedDecide as a declared policy, whose windows the runs
// are held to.
var seedPolicy = retrytest.Policy{First: seedBase, Growth: 2, Cap: seedCap, Jitter: retrytest.FullJitter, Attempts: seedMaxAttempts}

func TestRunSeed000(t *testing.T) {
	windows := seedPolicy.Windows()
	for seed := range uint64(50) {
		run, err := policysim.Run(seedDecide, seed)
		if err != nil {
			t.Fatalf("Run(seed %d) = %v", seed, err)
		}
		if !retrytest.AssertDelaysWithin(t, run, windows...) {
			t.Fatalf("seed %d", seed)
		}
		if got, want := run.GaveUp(), (policysim.GaveUp{Attempt: seedMaxAttempts, Reason: "exhausted"}); got != want {
			t.Errorf("seed %d: GaveUp() = %+v, want %+v", seed, got, want)
		}
	}
}

// The same seed gives the same run: Run's source is PCG(seed, 0),
// the stream of seqrand.Seeded(seed).
func TestRunDeterministic(t *testing.T) {
	a, _ := policysim.Run(seedDecide, 7)
	b, _ := policysim.RunRand(seedDecide, rand.New(rand.NewPCG(7, 0)))
	if !slices.Equal(a.Delays(), b.Delays()) {
		t.Errorf("Run(7) = %v, RunRand(PCG(7, 0)) = %v, want equal", a.Delays(), b.Delays())
	}
	c, _ := policysim.Run(seedDecide, 8)
	if slices.Equal(a.Delays(), c.Delays()) {
		t.Errorf("seeds 7 and 8 gave the same delays %v", a.Delays())
	}
}

// constSource is a rand.Source that always returns the same value: 0 makes
// Float64 return 0, all ones the largest float64 below 1.
type constSource uint64

func (c constSource) Uint64() uint64 { return uint64(c) }

// Endpoint sources pin both edges of every window.
func TestRunEndpoints(t *testing.T) {
	low, _ := policysim.RunRand(seedDecide, rand.New(constSource(0)))
	if got := low.Delays(); slices.ContainsFunc(got, func(d time.Duration) bool { return d != 0 }) {
		t.Errorf("delays at Min = %v, want all 0s", got)
	}
	high, _ := policysim.RunRand(seedDecide, rand.New(constSource(^uint64(0))))
	top := seedPolicy
	top.OpenTop, top.Tolerance = true, time.Microsecond
	retrytest.AssertDelaysWithin(t, high, top.Windows()...)
	if got := high.Delays()[len(high.Delays())-1]; got < seedCap-time.Microsecond {
		t.Errorf("last delay at Max = %v, want just under the 1h cap", got)
	}
}

func TestJobAccessors(t *testing.T) {
	p := func(failed int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
		switch failed {
		case 0:
			return retrytest.Decision{Retry: true, Delay: 7 * time.Second, Reason: "retry-after"}
		case 1:
			return retrytest.Decision{Retry: true, Delay: 10 * time.Second, Reason: "backoff"}
		}
		return retrytest.Decision{Reason: "exhausted"}
	}
	run, err := policysim.Run(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := run.Reasons(), []string{"retry-after", "backoff", "exhausted"}; !slices.Equal(got, want) {
		t.Errorf("Reasons() = %q, want %q", got, want)
	}
	if got, want := run.GaveUp(), (policysim.GaveUp{Attempt: 3, Reason: "exhausted"}); got != want {
		t.Errorf("GaveUp() = %+v, want %+v", got, want)
	}
	retrytest.AssertDelays(t, run, 7*time.Second, 10*time.Second)
	retrytest.AssertAttemptsAt(t, run, 0, 7*time.Second, 17*time.Second)
	// The schedule the checks read: attempts at 0s, 7s and 17s (delays 7s
	// and 10s, checked above), each with what the policy decided after it,
	// and no wait after the last.
	at, results, waits, untimed := run.RetrySchedule()
	if want := []time.Duration{0, 7 * time.Second, 17 * time.Second}; !slices.Equal(at, want) {
		t.Errorf("RetrySchedule() attempts = %v, want %v", at, want)
	}
	if want := []string{"retry: retry-after", "retry: backoff", "stop: exhausted"}; !slices.Equal(results, want) {
		t.Errorf("RetrySchedule() results = %q, want %q", results, want)
	}
	if waits != nil || untimed != "" {
		t.Errorf("RetrySchedule() waits, untimed = %v, %q, want nil, \"\"", waits, untimed)
	}
	golden.Check(t, "harness_policy_run", run.String()+"\n")
}

func TestRunFailures(t *testing.T) {
	forever := func(int, retrytest.Outcome, *rand.Rand) retrytest.Decision {
		return retrytest.Decision{Retry: true, Delay: time.Second, Reason: "backoff"}
	}
	for _, tc := range []struct {
		name      string
		run       func() (*policysim.Job, error)
		decisions int
	}{
		{"runaway", func() (*policysim.Job, error) { return policysim.Run(forever, 3) }, policysim.DefaultAttemptLimit},
		{"runaway with a limit", func() (*policysim.Job, error) {
			return policysim.Run(forever, 3, policysim.WithAttemptLimit(3))
		}, 3},
		{"panic", func() (*policysim.Job, error) {
			return policysim.Run(func(f int, _ retrytest.Outcome, _ *rand.Rand) retrytest.Decision {
				if f == 2 {
					panic("index out of range")
				}
				return retrytest.Decision{Retry: true, Delay: time.Second}
			}, 3)
		}, 2},
		{"nil policy", func() (*policysim.Job, error) { return policysim.Run(nil, 3) }, 0},
		{"nil rand", func() (*policysim.Job, error) { return policysim.RunRand(forever, nil) }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := tc.run()
			if err == nil || run == nil {
				t.Fatalf("run = %v, %v, want a run and an error", run, err)
			}
			if got := len(run.Decisions); got != tc.decisions {
				t.Errorf("len(Decisions) = %d, want %d", got, tc.decisions)
			}
			if got := run.GaveUp(); got != (policysim.GaveUp{}) {
				t.Errorf("GaveUp() = %+v, want the zero Stop: the policy never stopped", got)
			}
			if tc.name == "runaway" && !errors.Is(err, policysim.ErrRunaway) {
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
	if got := faket.PanicText(func() { policysim.WithAttemptLimit(0) }); got != "policysim: WithAttemptLimit: limit 0, want >= 1" {
		t.Errorf("WithAttemptLimit(0) panicked %q", got)
	}
}
