package presets

import (
	"slices"

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

	window func(k int) retrytest.Window
}

// Window returns the window of the delay before retry k, 1 for the first
// retry. It panics for a k outside 1 to Attempts-1.
func (p Preset) Window(k int) retrytest.Window {
	if k < 1 || k >= p.Attempts {
		panic("presets: " + p.Name + ": Window(k) for k outside 1 to Attempts-1")
	}
	return p.window(k)
}

// Windows returns the window of every delay: Attempts-1 windows, window i
// for the delay before attempt i+2.
func (p Preset) Windows() []retrytest.Window {
	ws := make([]retrytest.Window, p.Attempts-1)
	for i := range ws {
		ws[i] = p.window(i + 1)
	}
	return ws
}

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
