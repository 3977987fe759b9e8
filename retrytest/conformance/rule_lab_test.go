package conformance

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// formLab is a retrying client of one of the two policies real, correct
// SDK clients ship that the Spec's named fields cannot state (issue 31),
// built over the suite's seams, each bug a one-line change:
//
//   - "ladders": two ladders chosen by the cause, as aws-sdk-go-v2 backs
//     off: from 1s after a throttle (429), from 25ms after a server error
//     or a connection error, full jitter under a 20s cap, 3 attempts; its
//     X-Amz-Retry-After (milliseconds) held to [backoff, backoff+5s]; and,
//     with a quota, retries that draw on a quota shared by every call of
//     the client.
//   - "hint-jitter": a 429 waits its Retry-After, at least 1s, or 60s
//     when it cannot be read, plus up to 1s of jitter, as slack-go's
//     default does; a 503 its backoff (100ms doubling under 30s, up to
//     50ms added); connection errors are not retried; 4 attempts.
type formLab struct {
	form  string
	clk   clockwork.Clock
	rng   *rand.Rand
	rt    http.RoundTripper
	bugs  bugs
	quota *atomic.Int64 // retries left to every call of the client; nil for no quota
}

// The ladders of the "ladders" form.
var (
	serverLadder   = retrytest.Policy{First: 25 * time.Millisecond, Cap: 20 * time.Second, Jitter: retrytest.FullJitter, Attempts: 3}
	throttleLadder = retrytest.Policy{First: time.Second, Cap: 20 * time.Second, Jitter: retrytest.FullJitter, Attempts: 3}
	slackBackoff   = retrytest.Policy{First: 100 * time.Millisecond, Cap: 30 * time.Second, Jitter: retrytest.AddedJitter, JitterAmount: 50 * time.Millisecond, OpenTop: true, Attempts: 4}
)

func (l *formLab) attempts() int {
	if l.form == "ladders" {
		return 3
	}
	return 4
}

// RoundTrip is the client's call: its attempts through the suite's
// transport, and the waits between them.
func (l *formLab) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	body, _ := io.ReadAll(req.Body)
	for k := 1; ; k++ {
		r := req.Clone(ctx)
		r.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := l.rt.RoundTrip(r)
		d, retry := l.decide(k, resp, err)
		if !retry || k >= l.attempts() || ctx.Err() != nil {
			return resp, err
		}
		if l.quota != nil && l.quota.Add(-1) < 0 {
			return resp, err // the quota is spent: no retry
		}
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err := clockctx.Sleep(ctx, l.clk, d); err != nil {
			return nil, err
		}
	}
}

// decide is the wait before retry k after an attempt that ended with resp
// or err, and whether to retry.
func (l *formLab) decide(k int, resp *http.Response, err error) (time.Duration, bool) {
	if l.form == "ladders" {
		return l.decideLadders(k, resp, err)
	}
	return l.decideHintJitter(k, resp, err)
}

func (l *formLab) decideLadders(k int, resp *http.Response, err error) (time.Duration, bool) {
	base := 25 * time.Millisecond
	switch {
	case err != nil:
	case resp.StatusCode == 429:
		if !l.bugs["throttle-on-server-ladder"] {
			base = time.Second
		}
	case resp.StatusCode >= 500 && resp.StatusCode != 501:
	default:
		return 0, false
	}
	c := min(base<<(k-1), 20*time.Second)
	d := time.Duration(l.rng.Float64() * float64(c))
	if resp != nil {
		if ms, perr := strconv.ParseInt(resp.Header.Get("X-Amz-Retry-After"), 10, 64); perr == nil && ms >= 0 {
			h := retryafter.Forever
			if ms < int64(retryafter.Forever/time.Millisecond) {
				h = time.Duration(ms) * time.Millisecond
			}
			if l.bugs["relative-clamp-dropped"] {
				return h, true
			}
			d = min(max(h, d), d+5*time.Second)
		}
	}
	return d, true
}

func (l *formLab) decideHintJitter(k int, resp *http.Response, err error) (time.Duration, bool) {
	switch {
	case err != nil:
		if !l.bugs["conn-retried"] {
			return 0, false
		}
		return l.slackBackoff(k), true
	case resp.StatusCode == 503 && !l.bugs["fallback-on-503"]:
		return l.slackBackoff(k), true
	case resp.StatusCode == 429 || resp.StatusCode == 503:
	default:
		return 0, false
	}
	d := 60 * time.Second
	if h, perr := retryafter.Parse(strings.Trim(resp.Header.Get("Retry-After"), " \t"), l.now()); perr == nil && resp.StatusCode == 429 {
		d = max(h, time.Second)
	}
	j := time.Duration(l.rng.Int64N(int64(time.Second)))
	if l.bugs["own-random"] {
		j = time.Duration(rand.Int64N(int64(time.Second))) // the global source
	}
	if l.bugs["hint-jitter-subtracted"] {
		return d - j, true
	}
	return min(d, retryafter.Forever-time.Second) + j, true
}

func (l *formLab) slackBackoff(k int) time.Duration {
	j := l.rng.Int64N(int64(50 * time.Millisecond))
	if l.bugs["own-random"] {
		j = rand.Int64N(int64(50 * time.Millisecond))
	}
	return min(100*time.Millisecond<<(k-1), 30*time.Second) + time.Duration(j)
}

func (l *formLab) now() time.Time {
	if l.clk == nil {
		return time.Now()
	}
	return l.clk.Now()
}

// formClient builds a formLab client over the suite's seams.
func formClient(form string, b bugs, quota int64) func(Seams) Do {
	return func(s Seams) Do {
		l := &formLab{form: form, clk: s.Clock, rng: rngOf(s), rt: s.Transport, bugs: b}
		if quota > 0 {
			l.quota = &atomic.Int64{}
			l.quota.Store(quota)
		}
		return (&http.Client{Transport: l}).Do
	}
}

// laddersSpec states the "ladders" form exactly: two lines of a Rule over
// the server-error ladder the Policy declares.
func laddersSpec() Spec {
	return Spec{
		Policy:    serverLadder,
		Retryable: []int{429, 500, 502, 503, 504},
		Hints:     &Hints{Statuses: []int{429, 500, 502, 503, 504}, Fields: []string{"X-Amz-Retry-After"}, Max: retryafter.Forever},
		Rule: RuleFunc("a throttle backs off from 1s, other failures from 25ms; X-Amz-Retry-After is held to [backoff, backoff+5s]", func(r Retry) Want {
			if d := r.Default(); d.Final {
				return d
			}
			b := serverLadder.Window(r.K)
			if r.Cause.Status == 429 {
				b = throttleLadder.Window(r.K)
			}
			if !r.HintOK {
				return Want{Window: b, Draw: DrawUniform}
			}
			lo := min(max(r.Hint, b.Min), b.Min+5*time.Second)
			hi := min(max(r.Hint, b.Max), b.Max+5*time.Second)
			return Want{Window: retrytest.Window{Min: lo, Max: hi}}
		}),
	}
}

// hintJitterSpec states the "hint-jitter" form exactly.
func hintJitterSpec() Spec {
	return Spec{
		Policy:    slackBackoff,
		Retryable: []int{429, 503},
		Hints:     &Hints{Statuses: []int{429}, Min: time.Second, Max: retryafter.Forever},
		Rule: RuleFunc("a 429 waits its Retry-After (at least 1s), or 60s without one, plus up to 1s; connection errors are final", func(r Retry) Want {
			switch {
			case r.Cause.Status == 0 && r.Cause.Err != nil:
				return Want{Final: true}
			case r.Cause.Status != 429:
				return r.Default()
			}
			h := 60 * time.Second
			if r.HintOK {
				h = max(r.Hint, time.Second)
			}
			if h > retryafter.Forever-time.Second {
				return Want{Window: retrytest.Window{Min: h, Max: h}}
			}
			return Want{Window: retrytest.Window{Min: h, Max: h + time.Second, Open: true}, Draw: DrawUniform}
		}),
	}
}

// TestRuleForms: two real policies the named fields cannot state, each
// stated exactly by a few lines of a Rule, pass on the fake clock and in
// bubbles; each bug planted in them fails the properties that name it,
// and no other (issue 31).
func TestRuleForms(t *testing.T) {
	for _, tc := range []struct {
		form string
		spec func() Spec
		bugs map[string][]string
	}{
		{"ladders", laddersSpec, map[string][]string{
			// the 429 case waits the server-error ladder's top, not the
			// throttle's
			"throttle-on-server-ladder": {"RetryableStatuses"},
			// the hint honoured as is, 7s, not held to [backoff, backoff+5s]
			"relative-clamp-dropped": {"HintFields"},
		}},
		{"hint-jitter", hintJitterSpec, map[string][]string{
			// every wait after a 429: with a hint, and without one
			"hint-jitter-subtracted": {"RetryableStatuses", "RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd"},
			// 503 is the suite's transient failure: the ladder itself
			"fallback-on-503": {"WaitsInWindows", "JitterFromSource"},
			"conn-retried":    {"ConnectionErrors"},
		}},
	} {
		for _, bubble := range []bool{false, true} {
			var opts []Option
			name := tc.form
			if bubble {
				opts, name = append(opts, inBubbles(t)), name+" in bubbles"
			}
			r, err := CheckClient(tc.spec(), formClient(tc.form, nil, 0), opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Passed() {
				t.Errorf("%s, correct, stated by its Rule:\n%s", name, r)
			}
			for bug, want := range tc.bugs {
				r, err := CheckClient(tc.spec(), formClient(tc.form, bugs{bug: true}, 0), opts...)
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Failed(); !slices.Equal(got, want) {
					t.Errorf("%s with %s: failed %v, want %v\n%s", name, bug, got, want, r)
				}
			}
		}
	}
}

// TestSharedState: a quota shared by the calls of one client changes what
// a later call does; undeclared, FreshEachCall and ConcurrentCalls fail,
// naming the state carried over; declared, they skip, naming it.
func TestSharedState(t *testing.T) {
	spec := laddersSpec()
	r, err := CheckClient(spec, formClient("ladders", nil, 3))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Failed(); !slices.Equal(got, []string{"FreshEachCall", "ConcurrentCalls"}) {
		t.Errorf("a quota not declared: failed %v, want [FreshEachCall ConcurrentCalls]\n%s", got, r)
	}
	spec.SharedState = "a retry quota of 3 retries shared by the client's calls"
	r, err = CheckClient(spec, formClient("ladders", nil, 3))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("the quota declared:\n%s", r)
	}
	for _, p := range []string{"FreshEachCall", "ConcurrentCalls"} {
		if res := result(t, r, p); res.Verdict != Skipped || res.Message != "the Spec says the calls share state (a retry quota of 3 retries shared by the client's calls): a call need not do what it does alone" {
			t.Errorf("%s with the quota declared: %v %q", p, res.Verdict, res.Message)
		}
	}
}

// TestRuleBadAnswers: a Rule that panics, or answers a window that is no
// window, or contradicts the Spec's status lists, is an error before the
// run, naming the cause and the retry.
func TestRuleBadAnswers(t *testing.T) {
	for _, tc := range []struct {
		name string
		rule func(Retry) Want
		want string
	}{
		{"panics", func(r Retry) Want {
			if r.Cause.Status == 404 {
				panic("no rule for 404")
			}
			return r.Default()
		}, "the Spec's Rule (bad) panicked on retry 1 after 404 Not Found: no rule for 404"},
		{"no window", func(r Retry) Want {
			return Want{Window: retrytest.Window{Min: time.Second, Max: 0}}
		}, "the Spec's Rule (bad) answered the window [1s, 0s] for retry 1 after 500 Internal Server Error: want 0 <= Min <= Max"},
		{"bad draw", func(r Retry) Want { return Want{Window: retrytest.Window{Max: time.Second}, Draw: 9} }, "answered Draw Draw(9) for retry 1"},
		{"permanent retried", func(r Retry) Want {
			return Want{Window: retrytest.Window{Max: time.Second}, Draw: DrawUniform}
		}, "the Spec contradicts itself: status 400 is Permanent, but the Rule (bad) wants [0s, 1s] uniform after it, not Final"},
		{"retryable final", func(r Retry) Want {
			if r.Cause.Status == 429 {
				return Want{Final: true}
			}
			return r.Default()
		}, "status 429 is Retryable, but the Rule (bad) says it is Final"},
	} {
		spec := labSpec()
		spec.Rule = RuleFunc("bad", tc.rule)
		_, err := CheckClient(spec, clientOf(nil))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := CheckClient(labSpec(), clientOf(nil)); err != nil {
		t.Errorf("no Rule: %v", err)
	}
}

// TestRateLimit (issues 31 point 6, 32 point 3): a client-side limit on
// calls makes four calls made at once begin at 0s, 250ms, 500ms and 750ms.
// Undeclared, ConcurrentCalls fails, naming the instants (before, it
// compared the waits between attempts only, and passed); declared, it
// passes; declared wrong, it fails, saying when the token came.
func TestRateLimit(t *testing.T) {
	limited := func(s Seams) *lab {
		l := newLab(s, nil)
		l.limit = &labLimit{every: 250 * time.Millisecond, burst: 1}
		return l
	}
	loop := func(s Seams) Loop { return limited(s).Do }
	client := func(s Seams) Do { return (&http.Client{Transport: limited(s)}).Do }
	for _, bubble := range []bool{false, true} {
		var opts []Option
		if bubble {
			opts = append(opts, inBubbles(t))
		}
		check := func(spec Spec) []*Report {
			t.Helper()
			rl, err := CheckLoop(spec, loop, opts...)
			if err != nil {
				t.Fatal(err)
			}
			rc, err := CheckClient(spec, client, opts...)
			if err != nil {
				t.Fatal(err)
			}
			return []*Report{rl, rc}
		}
		for _, r := range check(labSpec()) {
			// Which call gets which token is the scheduler's: the instants
			// are not.
			undeclared := regexp.MustCompile(`call \d began at 0s and made its first attempt at 250ms, 250ms later; call \d began at 0s and made its first attempt at 500ms, 500ms later; call \d began at 0s and made its first attempt at 750ms, 750ms later: a wait before the first attempt that the Spec does not declare`)
			if got := r.Failed(); !slices.Equal(got, []string{"ConcurrentCalls"}) || !undeclared.MatchString(result(t, r, "ConcurrentCalls").Message) {
				t.Errorf("bubble %v, a limit on calls, undeclared: failed %v, want ConcurrentCalls naming the instants\n%s", bubble, got, r)
			}
		}
		spec := labSpec()
		spec.RateLimit = &RateLimit{Every: 250 * time.Millisecond}
		for _, r := range check(spec) {
			if !r.Passed() {
				t.Errorf("bubble %v, the limit declared:\n%s", bubble, r)
			}
		}
		spec.RateLimit = &RateLimit{Every: 100 * time.Millisecond, Burst: 2}
		for _, r := range check(spec) {
			if got := r.Failed(); !slices.Equal(got, []string{"ConcurrentCalls"}) || !strings.Contains(result(t, r, "ConcurrentCalls").Message,
				"began at 0s and made its first attempt at 250ms, want 0s, when the 1 call every 100ms, bursts of 2 limit has a token for it") {
				t.Errorf("bubble %v, the limit declared wrong: failed %v\n%s", bubble, got, r)
			}
		}
	}
	if _, err := CheckLoop(Spec{Policy: labPolicy, RateLimit: &RateLimit{}}, loop); err == nil || !strings.Contains(err.Error(), "RateLimit{Every: 0s, Burst: 0}, want Every > 0s") {
		t.Errorf("a RateLimit of no rate: %v", err)
	}
}

// TestRuleOwnRandom (issue 31, found on slack-go and aws-sdk-go-v2): for
// code that draws its own jitter, a Rule's window other than the ladder's
// is sampled until every eighth of it is reached, so a window declared 20
// times too wide fails where one draw within it passed.
func TestRuleOwnRandom(t *testing.T) {
	spec := func(jitter time.Duration) Spec {
		s := hintJitterSpec()
		s.OwnRandom = true
		inner := s.Rule
		s.Rule = RuleFunc(fmt.Sprintf("a 429 waits its hint, or 60s, plus up to %s", jitter), func(r Retry) Want {
			w := inner.Want(r)
			if r.Cause.Status == 429 && w.Draw == DrawUniform {
				w.Window.Max = w.Window.Min + jitter
			}
			return w
		})
		return s
	}
	client := formClient("hint-jitter", bugs{"own-random": true}, 0)
	r, err := CheckClient(spec(time.Second), client, inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("the jitter on the hint drawn from the global source, declared exactly:\n%s", r)
	}
	r, err = CheckClient(spec(20*time.Second), client, inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	got := r.Failed()
	if !slices.Contains(got, "RetryableStatuses") || !slices.Contains(got, "RetryAfterSeconds") {
		t.Errorf("the jitter declared 20s, drawn up to 1s: failed %v, want RetryableStatuses and RetryAfterSeconds among them\n%s", got, r)
	}
	if msg := r.String(); !strings.Contains(msg, "(the code draws its own jitter, so the suite samples it) none fell in") {
		t.Errorf("the failure does not say the jitter spans less:\n%s", msg)
	}
}
