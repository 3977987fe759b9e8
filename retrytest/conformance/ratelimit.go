package conformance

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// RateLimit is a client-side rate limit on calls, shared by every call of
// the code under test: a token bucket of Burst calls, refilled one every
// Every, full at the start, from which a call's first attempt takes a
// token, waiting for one when the bucket is empty (its retries wait their
// backoff, as the ladder says). Four calls made at once under
// RateLimit{Every: 250 * time.Millisecond} begin their first attempts at
// 0s, 250ms, 500ms and 750ms.
type RateLimit struct {
	// Every is how often the bucket gains a token.
	Every time.Duration
	// Burst is how many tokens it holds; 0 means 1.
	Burst int
}

// String describes the limit: "1 attempt every 250ms, bursts of 4".
func (r RateLimit) String() string {
	s := "1 call every " + schedfmt.Duration(r.Every)
	if r.burst() > 1 {
		s += fmt.Sprintf(", bursts of %d", r.burst())
	}
	return s
}

func (r RateLimit) burst() int { return max(r.Burst, 1) }

// timedCall is a call's start and the instants its attempts began, on
// one clock.
type timedCall struct {
	n        int // the call's number, for messages
	start    time.Duration
	attempts []time.Duration
}

// timed is the calls' timedCalls, on the clock of the first call's start.
func timed(calls ...*call) []timedCall {
	if len(calls) == 0 {
		return nil
	}
	origin := calls[0].start
	for _, cl := range calls {
		if cl.start.Before(origin) {
			origin = cl.start
		}
	}
	var out []timedCall
	for _, cl := range calls {
		tc := timedCall{n: cl.n, start: cl.start.Sub(origin)}
		for _, a := range cl.attempts() {
			tc.attempts = append(tc.attempts, tc.start+a)
		}
		out = append(out, tc)
	}
	return out
}

// timelineWaits says how the calls' first attempts began other than the
// code allows, or "". own is the wait the code makes before the first
// attempt of a call made alone (FirstAttemptImmediate judges that one):
// without a declared RateLimit each call's first attempt must begin own
// after the call does; with one, as soon after that as the bucket (whose
// tokens the first attempts take, in the order they began) holds a token.
// The waits between attempts are sameWaits's.
func (c *config) timelineWaits(calls []timedCall, own time.Duration) string {
	type first struct {
		n         int
		start, at time.Duration
	}
	var fs []first
	for _, cl := range calls {
		if len(cl.attempts) > 0 {
			fs = append(fs, first{cl.n, cl.start, cl.attempts[0]})
		}
	}
	slices.SortStableFunc(fs, func(a, b first) int { return cmp.Compare(a.at, b.at) })
	var bad []string
	rl := c.spec.RateLimit
	if rl == nil {
		for _, f := range fs {
			if f.at != f.start+own {
				bad = append(bad, fmt.Sprintf("call %d began at %s and made its first attempt at %s, %s later", f.n, schedfmt.Duration(f.start), schedfmt.Duration(f.at), schedfmt.Duration(f.at-f.start)))
			}
		}
		if len(bad) == 0 {
			return ""
		}
		alone := ""
		if own > 0 {
			alone = fmt.Sprintf(" (a call made alone waits %s)", schedfmt.Duration(own))
		}
		return strings.Join(bad, "; ") + alone + ": a wait before the first attempt that the Spec does not declare (a rate limit on calls shared by them? declare it: Spec.RateLimit)"
	}
	// The generic cell rate algorithm: a call at a may go when a >= tat -
	// (Burst-1)·Every; tat then moves to max(tat, a) + Every.
	var tat time.Duration
	slack := time.Duration(rl.burst()-1) * rl.Every
	for i, f := range fs {
		want := f.start + own
		if i > 0 {
			want = max(want, tat-slack)
		}
		if f.at < want-c.edgeSlack() || f.at > want+c.edgeSlack() {
			bad = append(bad, fmt.Sprintf("call %d began at %s and made its first attempt at %s, want %s, when the %s limit has a token for it", f.n, schedfmt.Duration(f.start), schedfmt.Duration(f.at), schedfmt.Duration(want), rl))
		}
		if i == 0 || f.at > tat {
			tat = f.at
		}
		tat += rl.Every
	}
	return strings.Join(bad, "; ")
}
