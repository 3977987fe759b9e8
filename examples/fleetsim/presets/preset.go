package presets

import (
	"slices"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

// Preset is a job framework's default retry policy, modelled as a pure
// policy.
type Preset struct {
	// Name is the preset's name, fleetsim's -preset value: "river",
	// "asynq".
	Name string
	// Title names the policy: "River's default".
	Title string
	// About describes the policy in a few words, as retrytest.Policy's
	// String does: "n^4 s ±10% after the n-th error, 25 attempts (24
	// retries)".
	About string
	// Attempts is how many attempts a job makes in all, the first one
	// included.
	Attempts int
	// Decide draws the delay after each failure as the framework does, and
	// gives up ("exhausted") after the last attempt. It reads no outcome:
	// the frameworks' defaults retry every failure.
	Decide retrytest.DecideFunc
	// Policy states the framework's default as a retrytest.Policy, a
	// table of ceilings and the framework's jitter: the windows Decide
	// draws in, the contract conformance holds Decide to, and the base
	// policysim.Advise searches around.
	Policy retrytest.Policy
	// Hook names the framework's hook for a retry policy: "River's
	// ClientRetryPolicy", "asynq's RetryDelayFunc".
	Hook string
	// Paste writes an advised policy as Go code for the Hook
	// (paste.River, paste.Asynq).
	Paste func(retrytest.Policy) (string, error)
}

// Window returns the window of the delay before retry k, 1 for the first
// retry. It panics for a k outside 1 to Attempts-1.
func (p Preset) Window(k int) retrytest.Window {
	if k < 1 || k >= p.Attempts {
		panic("presets: " + p.Name + ": Window(k) for k outside 1 to Attempts-1")
	}
	return p.Policy.Window(k)
}

// Windows returns the window of every delay: Attempts-1 windows, window i
// for the delay before attempt i+2.
func (p Preset) Windows() []retrytest.Window { return p.Policy.Windows() }

// All returns every preset, in the order fleetsim lists them.
func All() []Preset { return []Preset{River(), Asynq()} }

// Lookup returns the preset named name.
func Lookup(name string) (Preset, bool) {
	all := All()
	i := slices.IndexFunc(all, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		return Preset{}, false
	}
	return all[i], true
}

// Names returns the presets' names.
func Names() []string {
	var out []string
	for _, p := range All() {
		out = append(out, p.Name)
	}
	return out
}

// ceilings returns the table of n ceilings, f(k) for retry k from 1.
func ceilings(n int, f func(k int) time.Duration) []time.Duration {
	cs := make([]time.Duration, n)
	for k := 1; k <= n; k++ {
		cs[k-1] = f(k)
	}
	return cs
}
