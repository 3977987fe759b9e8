package conformance

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// The regression tests of issue 23: a pass of the suite names what it saw.
// Each says, above it, the finding it pins and what the suite did before.

// result returns the Result of the property named name in r.
func result(t *testing.T, r *Report, name string) Result {
	t.Helper()
	for _, res := range r.Results {
		if res.Property == name {
			return res
		}
	}
	t.Fatalf("the report has no property %s:\n%s", name, r)
	return Result{}
}

// skippedNaming checks that the property name skipped in r, saying why
// and naming the property that reports the cause: every case skipped, or
// the property itself.
func skippedNaming(t *testing.T, r *Report, name, cause string) {
	t.Helper()
	res := result(t, r, name)
	if res.Verdict != Skipped {
		t.Errorf("%s: %v, want skip\n%s", name, res.Verdict, r)
		return
	}
	msgs := []string{res.Message}
	for _, c := range res.Cases {
		msgs = append(msgs, c.Message)
	}
	if !strings.Contains(strings.Join(msgs, "\n"), cause) {
		t.Errorf("%s skipped saying %q, want it to name %s", name, msgs, cause)
	}
}

// Finding 2: code that never retries passed JitterFromSource,
// FreshEachCall, ConcurrentCalls, WaitsInWindows and
// NoWaitAfterLastAttempt; they skip now, naming AttemptCount, which fails.
func TestNoRetryIsNoPass(t *testing.T) {
	check := func(t *testing.T, r *Report, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"WaitsInWindows", "JitterFromSource", "CapReached", "NoSpikeAtCap", "NoWaitAfterLastAttempt", "CancelDuringWait", "DeadlineCutsWait", "FreshEachCall", "ConcurrentCalls"} {
			skippedNaming(t, r, name, "AttemptCount")
		}
		if got := r.Failed(); !slices.Equal(got, []string{"AttemptCount"}) {
			t.Errorf("failed %v, want [AttemptCount]", got)
		}
	}
	t.Run("fake clock", func(t *testing.T) {
		r, err := CheckLoop(labSpec(), loopOf(bugs{"never-retries": true}))
		check(t, r, err)
	})
	t.Run("bubble", func(t *testing.T) {
		r, err := CheckLoop(labSpec(), loopOf(bugs{"never-retries": true}), inBubbles(t))
		check(t, r, err)
	})
}

// Findings 2 and 3: a loop handed the suite's clock that waits on a real
// time.After passed WaitsInWindows and JitterFromSource, and a client
// doing so failed eight properties with "gave up" and "not retried",
// never naming the cause. Now WaitsOnTheClock fails, with the goroutine,
// the file:line of its wait and the fix, and the properties that read
// waits skip, naming it.
func TestRealTimerOneRootCause(t *testing.T) {
	for _, shape := range []string{"loop", "client"} {
		t.Run(shape, func(t *testing.T) {
			var r *Report
			var err error
			if shape == "loop" {
				r, err = CheckLoop(labSpec(), loopOf(bugs{"real-timer": true}))
			} else {
				r, err = CheckClient(labSpec(), clientOf(bugs{"real-timer": true}))
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Failed(); !slices.Equal(got, []string{probeName}) {
				t.Fatalf("failed %v, want [%s] alone\n%s", got, probeName, r)
			}
			msg := result(t, r, probeName).Message
			for _, want := range []string{
				"after 1 attempt the call has neither returned nor armed a timer on the suite's clock",
				"waits in a select (at lab_test.go:",
				"fix: make every wait of the code use Seams.Clock (or Seams.Sleep)",
				"pass RunInBubble()",
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("WaitsOnTheClock's message lacks %q:\n%s", want, msg)
				}
			}
			for _, name := range []string{"WaitsInWindows", "JitterFromSource", "AttemptCount", "NoLeaks"} {
				skippedNaming(t, r, name, probeName)
				// The skip names the wait itself, so it stays true when
				// go test -run leaves WaitsOnTheClock out (issue 32).
				if msg := result(t, r, name).Message; !strings.Contains(msg, "waits in a select (at lab_test.go:") {
					t.Errorf("%s's skip does not name the wait: %s", name, msg)
				}
			}
			if res := result(t, r, "FirstAttemptImmediate"); res.Verdict != Passed {
				t.Errorf("FirstAttemptImmediate, which reads no wait: %v, want pass", res.Verdict)
			}
		})
	}
}

// WaitsOnTheClock raises no false alarm: a correct lab passes it, in a
// bubble it is skipped (the time package is the bubble's clock), and a
// client whose request waits on the scripted transport's latency, a timer
// of the suite's clock, waits on the clock.
func TestWaitsOnTheClockNoFalseAlarm(t *testing.T) {
	r, err := CheckClient(labSpec(), clientOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, probeName); res.Verdict != Passed {
		t.Errorf("a correct client: %v %q, want pass", res.Verdict, res.Message)
	}
	r, err = CheckClient(labSpec(), clientOf(nil), inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	// In a bubble the lab uses Seams.Clock, the bubble's time behind it
	// (issue 37): its waits are seen on it.
	if res := result(t, r, probeName); res.Verdict != Passed {
		t.Errorf("in a bubble: %v %q, want pass", res.Verdict, res.Message)
	}
}

// Finding 4: Spec{Retryable: []int{}} — a client that retries connection
// errors only — panicked with an index out of range and killed the test
// binary. Now the transient failure is a reset, the statuses property
// skips, saying why, and the client passes.
func TestNoRetryableStatus(t *testing.T) {
	spec := labSpec()
	spec.Retryable, spec.Hints = []int{}, nil
	r, err := CheckClient(spec, clientOf(bugs{"statuses-not-retried": true}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("a client that retries connection errors only, declared so:\n%s", r)
	}
	if res := result(t, r, "RetryableStatuses"); res.Verdict != Skipped || res.Message != "the Spec names no Retryable status" {
		t.Errorf("RetryableStatuses: %v %q, want skip: the Spec names no Retryable status", res.Verdict, res.Message)
	}
	if res := result(t, r, "AttemptCount"); res.Verdict != Passed {
		t.Errorf("AttemptCount on resets: %v %q, want pass", res.Verdict, res.Message)
	}
	// A Permanent list that is empty leaves PermanentNotRetried nothing
	// to send: a skip, not a pass.
	spec.Permanent = []int{}
	r, err = CheckClient(spec, clientOf(bugs{"statuses-not-retried": true}))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "PermanentNotRetried"); res.Verdict != Skipped || res.Message != "the Spec names no Permanent status" {
		t.Errorf("PermanentNotRetried with no Permanent status: %v %q, want skip", res.Verdict, res.Message)
	}
}

// hintRecorder wraps a client's transport and records every Retry-After
// the suite's replies carried.
type hintRecorder struct {
	rt http.RoundTripper
	mu *sync.Mutex
	vs *[]string
}

func (h hintRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.rt.RoundTrip(req)
	if resp != nil {
		if v, ok := resp.Header["Retry-After"]; ok {
			h.mu.Lock()
			*h.vs = append(*h.vs, v...)
			h.mu.Unlock()
		}
	}
	return resp, err
}

// Finding 5: Hints{Max: retryafter.Forever}, the way to say "no ceiling",
// made the suite compute Max + 1h unsaturated and send Retry-After:
// -9223368436. Now no hint but the deliberate "-5" is negative,
// RetryAfterClamped skips (nothing is above no ceiling), and the huge hint
// must make a huge wait: a parser that wraps it fails.
func TestNoCeiling(t *testing.T) {
	spec := labSpec()
	spec.Hints = &Hints{Min: 50 * time.Millisecond, Max: retryafter.Forever}
	var mu sync.Mutex
	var sent []string
	client := func(b bugs) func(Seams) Do {
		return func(s Seams) Do {
			s.Transport = hintRecorder{s.Transport, &mu, &sent}
			return (&http.Client{Transport: newLab(s, b)}).Do
		}
	}
	r, err := CheckClient(spec, client(bugs{"hint-unclamped": true}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("a client with no ceiling, declared so:\n%s", r)
	}
	skippedNaming(t, r, "RetryAfterClamped", "no ceiling")
	for _, v := range sent {
		if strings.HasPrefix(v, "-") && v != "-5" {
			t.Errorf("the suite sent Retry-After: %s", v)
		}
	}
	r, err = CheckClient(spec, client(bugs{"hint-unclamped": true, "parse-float": true}))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(Failed); !slices.Contains(got, "RetryAfterAbsurd/huge") {
		t.Errorf("a client whose 9223372037s wraps, with no ceiling: failed %v, want RetryAfterAbsurd/huge among them\n%s", got, r)
	}
}

// Finding 6: a call still running after a cancel read as a mistake of the
// harness ("step the clock past it before checking").
func TestCancelIgnoredMessage(t *testing.T) {
	r, err := CheckLoop(labSpec(), loopOf(bugs{"wait-ignores-ctx": true}))
	if err != nil {
		t.Fatal(err)
	}
	msg := result(t, r, "CancelDuringWait").Message
	if !strings.HasPrefix(msg, "canceled at 49.999999ms, in the middle of the first wait (99.999999ms), the call is still running: the cancel did not end its wait\n") ||
		strings.Contains(msg, "step the clock") {
		t.Errorf("CancelDuringWait says:\n%s\nwant that the cancel did not end the wait", msg)
	}
}

// Finding 6: "gave up" was said of a call still running.
func TestGaveUpOrStillWaiting(t *testing.T) {
	c := &config{}
	c.spec, _, _ = labSpec().normalize()
	q := question{want: Want{Window: retrytest.Window{Min: 7 * time.Second, Max: 7 * time.Second}, Draw: DrawExact}}
	if got := c.judge(seen{}, q, base{}); got != "still waiting, with no retry, when the suite stopped; want a retry" {
		t.Errorf("a call still running: %q", got)
	}
	if got := c.judge(seen{returned: true}, q, base{}); got != "gave up (returned without a retry), want a retry" {
		t.Errorf("a call that returned: %q", got)
	}
}

// Finding 6: JitterFromSource said the draws span less than the window
// when they spanned more.
func TestJitterSpanWords(t *testing.T) {
	c := &config{}
	spec := labSpec()
	spec.Policy = retrytest.Policy{First: 100 * time.Millisecond, Cap: time.Second, Jitter: retrytest.EqualJitter, Attempts: 4}
	c.spec, _, _ = spec.normalize()
	min := edges[0].src()
	// Retry 1's window is [50ms, 100ms].
	if got := c.edgeMisses(min, []time.Duration{40 * time.Millisecond}); !strings.Contains(got, "past the edge: the jitter spans more than the declared window") || strings.Contains(got, "short") {
		t.Errorf("a wait below the bottom at Min: %q, want it to span more", got)
	}
	if got := c.edgeMisses(min, []time.Duration{60 * time.Millisecond}); !strings.Contains(got, "short of the edge: the jitter is not drawn from Seams.Rand, or spans less than the declared window") || strings.Contains(got, "past") {
		t.Errorf("a wait above the bottom at Min: %q, want it short", got)
	}
	if got := c.edgeMisses(min, []time.Duration{50 * time.Millisecond}); got != "" {
		t.Errorf("a wait on the bottom at Min: %q, want none", got)
	}
}

// Finding 6: implausible values were accepted without a word; they are
// warnings now, in the Report and the Test forms' log.
func TestImplausibleValuesWarn(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: time.Minute, Cap: 30 * time.Second, Attempts: 3}, "Policy.First 1m is above Policy.Cap 30s: every wait is the cap"},
		{retrytest.Policy{First: 0, Jitter: retrytest.FullJitter, Attempts: 3}, `Policy.First is 0: every ceiling is 0, so the 0s doubling, full jitter, no cap, 3 attempts (2 retries) never makes a wait (First 0 with no jitter is the way to say "no wait")`},
		{retrytest.Policy{First: 0, Growth: 3, Attempts: 3}, `Policy.First is 0: every ceiling is 0, so the 0s x3, no jitter, no cap, 3 attempts (2 retries) never makes a wait (First 0 with no jitter is the way to say "no wait")`},
	} {
		spec := Spec{Policy: tc.p}
		r, err := CheckPolicy(spec, tc.p.Decide)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Warnings, []string{tc.want}) {
			t.Errorf("%v: warnings %q, want %q", tc.p, r.Warnings, tc.want)
		}
	}
	// First 0 with no jitter is "no wait": valid, and no warning; nor is
	// First 0 (unused) with Ceilings, River's e⁴ seconds ±10%, nor a Cap
	// below the first ceiling (a Policy cannot have both First and
	// Ceilings).
	for _, p := range []retrytest.Policy{
		{Attempts: 3},
		{Ceilings: []time.Duration{time.Second, 16 * time.Second}, Jitter: retrytest.FactorJitter, JitterFactor: 0.1, Attempts: 3},
		{Ceilings: []time.Duration{time.Minute, 2 * time.Minute}, Cap: 30 * time.Second, Attempts: 3},
	} {
		r, err := CheckPolicy(Spec{Policy: p}, p.Decide)
		if err != nil || len(r.Warnings) != 0 {
			t.Errorf("%v: %v, warnings %q; want none", p, err, r.Warnings)
		}
	}
}

// Finding 7: results were per property, so a waiver pinned for one case
// accepted another release's bugs in the same property. A case waiver now
// covers its case only.
func TestCaseWaivers(t *testing.T) {
	waive := Waive("RetryAfterHTTPDate/rfc850", "RFC 850 dates not read (ticket 12)")
	r, err := CheckClient(labSpec(), clientOf(bugs{"rfc850-not-read": true}), waive, inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() || !slices.Equal(r.Names(Waived), []string{"RetryAfterHTTPDate/rfc850"}) {
		t.Errorf("the one gap waived by case: passed %v, waived %v\n%s", r.Passed(), r.Names(Waived), r)
	}
	// An older release that also misses asctime dates is not hidden.
	r, err = CheckClient(labSpec(), clientOf(bugs{"imf-only": true}), waive, inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(Failed); !slices.Equal(got, []string{"RetryAfterHTTPDate/asctime"}) {
		t.Errorf("a second gap beside the waived one: failed %v, want [RetryAfterHTTPDate/asctime]\n%s", got, r)
	}
	// A property's waiver covers every case of it, and says which.
	r, err = CheckClient(labSpec(), clientOf(bugs{"imf-only": true}), Waive("RetryAfterHTTPDate", "dates: ticket 13"), inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "RetryAfterHTTPDate"); !r.Passed() || res.Verdict != Waived || res.Message != "dates: ticket 13 (covers rfc850, asctime)" {
		t.Errorf("a property waiver: %v %q, passed %v; want waived, naming the cases it covers", res.Verdict, res.Message, r.Passed())
	}
	if !strings.Contains(r.String(), "RetryAfterHTTPDate      waived: rfc850, asctime: dates: ticket 13 (covers rfc850, asctime)") {
		t.Errorf("the report does not print the cases the waiver covers:\n%s", r)
	}
	// A case waiver whose case holds is stale.
	r, err = CheckClient(labSpec(), clientOf(nil), waive, inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Passed() || !slices.Equal(r.Names(Stale), []string{"RetryAfterHTTPDate/rfc850"}) || len(r.Failed()) != 0 {
		t.Errorf("a stale case waiver: passed %v, stale %v, failed %v\n%s", r.Passed(), r.Names(Stale), r.Failed(), r)
	}
	// A case the property does not have fails it, listing those it has.
	r, err = CheckClient(labSpec(), clientOf(nil), Waive("RetryAfterHTTPDate/rfc1123", "typo"), inBubbles(t))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "RetryAfterHTTPDate"); res.Verdict != Failed ||
		res.Message != `Waive("RetryAfterHTTPDate/rfc1123"): RetryAfterHTTPDate has no case "rfc1123": its cases are imf-fixdate, rfc850, asctime, zone` {
		t.Errorf("a waiver of no case: %v %q", res.Verdict, res.Message)
	}
	if _, err := CheckClient(labSpec(), clientOf(nil), Waive("RetryAfterHTTPDate/RFC850", "x")); err == nil ||
		!strings.Contains(err.Error(), "a case is named by one lowercase word after the property") {
		t.Errorf("a case name that is not one lowercase word: %v", err)
	}
}

// Finding 9: with RunInBubble the Check forms skipped every property and
// the Test forms returned nothing. The Test forms return the Report, and
// a Check form refuses the option, saying what to call.
func TestBubbleReport(t *testing.T) {
	r := TestClient(t, labSpec(), clientOf(nil), RunInBubble())
	if r == nil || len(r.Results) != len(clientProps()) || !r.Passed() {
		t.Fatalf("TestClient in a bubble returned %v", r)
	}
	if res := result(t, r, "AttemptCount"); res.Verdict != Passed {
		t.Errorf("AttemptCount in a bubble: %v, want pass", res.Verdict)
	}
	if _, err := CheckClient(labSpec(), clientOf(nil), RunInBubble()); err != errBubbleNeedsT {
		t.Errorf("CheckClient with RunInBubble: %v, want %v", err, errBubbleNeedsT)
	}
	if _, err := CheckLoop(labSpec(), loopOf(nil), RunInBubble()); err != errBubbleNeedsT {
		t.Errorf("CheckLoop with RunInBubble: %v, want %v", err, errBubbleNeedsT)
	}
}
