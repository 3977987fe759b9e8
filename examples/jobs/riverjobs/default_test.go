package riverjobs_test

import (
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/retrytest"
)

// River's default policy through its own NextRetry, many draws per retry:
// for the job's n-th error (n-1 recorded before it) the delay lies within
// [0.9·n⁴, 1.1·n⁴] seconds, and the draws come within 2% of the width of
// both edges, so the window is River's and not a looser one
// (river@v0.51.2 internal/retrypolicy/default.go:37,91; the 24 retries of
// River's 25 attempts). Its jitter comes from math/rand/v2's global
// source and its clock, outside a client, is the wall clock: neither can
// be pinned, so each delay is bracketed by time.Now read before and after
// the call and fails only if the whole bracket is outside the window. A
// draw misses an edge's 2% with probability 0.98 per draw: all 2000 miss
// it with probability 3·10⁻¹⁸.
//
// The whole contract of this policy, through the suite, is
// TestRiverDefaultPolicyConforms; this test pins the window at its edges
// in River's own terms.
func TestRiverDefaultPolicyWithinNToTheFourth(t *testing.T) {
	const draws = 2000
	policy := &river.DefaultClientRetryPolicy{}
	for n := 1; n < river.MaxAttemptsDefault; n++ {
		job := &rivertype.JobRow{Attempt: n, Errors: make([]rivertype.AttemptError, n-1)}
		n4 := time.Duration(n * n * n * n)
		lo, hi := n4*900*time.Millisecond, n4*1100*time.Millisecond
		slack := (hi - lo) / 50
		nearLo, nearHi := false, false
		for range draws {
			short, long := bracket(policy, job)
			if long < lo || short > hi {
				t.Fatalf("error %d: River's default waits [%s, %s], want within [0.9·%d⁴ s, 1.1·%d⁴ s] = [%s, %s]", n, short, long, n, n, lo, hi)
			}
			nearLo = nearLo || short <= lo+slack
			nearHi = nearHi || long >= hi-slack
		}
		if !nearLo || !nearHi {
			t.Errorf("error %d: in %d draws River's default came within %s of the bottom of [%s, %s]: %t, of its top: %t; want both: a window narrower than ±10%%",
				n, draws, slack, lo, hi, nearLo, nearHi)
		}
	}
}

// bracket calls River's default policy for job and returns the shortest
// and the longest delay it can have scheduled: NextRetry reads the wall
// clock itself, between the two reads here.
func bracket(policy river.ClientRetryPolicy, job *rivertype.JobRow) (short, long time.Duration) {
	before := time.Now()
	at := policy.NextRetry(job)
	after := time.Now()
	return at.Sub(after), at.Sub(before)
}

// outcome503 is the failure the models are asked about.
var outcome503 = retrytest.Outcome{Status: 503}
