package conformance

import (
	"slices"
	"strings"
	"testing"
)

// The Spec forms of issue 24, each proved on the lab: the correct code
// declared so passes, and a planted bug fails the property named for it.

// ownRandomSpec is the lab's Spec for code whose jitter comes from the
// math/rand/v2 global.
func ownRandomSpec() Spec {
	s := labSpec()
	s.OwnRandom = true
	return s
}

// OwnRandom: a jitter from a source of the code's own is held to its
// windows over a sample, JitterFromSource is a skip with that reason, not
// a waiver, and the bugs a sample can see fail by name. The calls run in
// bubbles, where a sample of a thousand waits takes milliseconds.
func TestOwnRandom(t *testing.T) {
	for _, shape := range []string{"loop", "client", "policy"} {
		t.Run(shape, func(t *testing.T) {
			check := func(b bugs) *Report {
				t.Helper()
				b["global-rand"] = true
				var r *Report
				var err error
				switch shape {
				case "loop":
					r, err = CheckLoop(ownRandomSpec(), loopOf(b), inBubbles(t))
				case "client":
					r, err = CheckClient(ownRandomSpec(), clientOf(b), inBubbles(t))
				default:
					r, err = CheckPolicy(ownRandomSpec(), policyOf(b))
				}
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			r := check(bugs{})
			if !r.Passed() {
				t.Errorf("the lab drawing from the global source, declared so:\n%s", r)
			}
			skippedNaming(t, r, "JitterFromSource", "OwnRandom")
			if res := result(t, r, "WaitsInWindows"); len(res.Cases) != 1 || res.Cases[0].Name != "sample" || res.Cases[0].Status != Passed {
				t.Errorf("WaitsInWindows: %+v, want one passing case, sample", res)
			}
			for bug, want := range map[string][]string{
				"no-jitter": {"WaitsInWindows", "NoSpikeAtCap"},
				// The jitter spans less than declared: the sample
				// sees it where the seam's edges would.
				"cap-in-wrong-unit": {"WaitsInWindows", "CapReached", "NoSpikeAtCap"},
				"half-jitter":       {"WaitsInWindows", "NoSpikeAtCap"},
			} {
				if got := check(bugs{bug: true}).Failed(); !slices.Equal(got, want) {
					t.Errorf("%s with %s: failed %v, want %v", shape, bug, got, want)
				}
			}
			msg := result(t, check(bugs{"half-jitter": true}), "WaitsInWindows").Cases[0].Message
			if !strings.Contains(msg, "the 1st quarter of [0s, 100ms]") || !strings.Contains(msg, "the jitter spans less than the declared window") {
				t.Errorf("half-jitter: %s", msg)
			}
		})
	}
}

// On a fake clock too (once: a settle outside a bubble costs a goroutine
// dump per timer, so a sample takes half a second there).
func TestOwnRandomOnFakeClock(t *testing.T) {
	r, err := CheckLoop(ownRandomSpec(), loopOf(bugs{"global-rand": true}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() || result(t, r, "WaitsInWindows").Cases[0].Status != Passed {
		t.Errorf("the lab drawing from the global source, on a fake clock:\n%s", r)
	}
}
