package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
)

func TestSpecContradictions(t *testing.T) {
	ok := labSpec()
	const (
		incomplete = "conformance: the Spec is incomplete: "
		contra     = "conformance: the Spec contradicts itself: "
		invalid    = "conformance: the Spec has values out of range: "
	)
	tests := []struct {
		name string
		edit func(*Spec)
		want string // the whole error
	}{
		{"no stop", func(s *Spec) { s.Policy.Attempts = 0 }, incomplete + "the loop never stops: Policy.Attempts is 0 and Budget is 0, want Attempts, a Budget or both"},
		{"negative budget", func(s *Spec) { s.Budget = -time.Second }, invalid + "a Budget of -1s, want >= 0s (0 means none)"},
		{"invalid policy", func(s *Spec) { s.Policy.First = -time.Second }, invalid + "retrytest: Policy: First -1s, want a delay >= 0s"},
		{"shrinking", func(s *Spec) { s.Policy.Growth = 0.5 }, invalid + "Policy.Growth 0.5 shrinks every wait, want 1 (a constant wait) or more (0 means 2)"},
		{"both lists", func(s *Spec) { s.Permanent = []int{503} }, contra + "status 503 is both Retryable and Permanent"},
		{"not a status", func(s *Spec) { s.Retryable = []int{99, 429} }, invalid + "status 99, want 100-599"},
		{"status 600", func(s *Spec) { s.Permanent = []int{600} }, invalid + "status 600, want 100-599"},
		{"negative floor", func(s *Spec) { s.Hints = &Hints{Min: -time.Second} }, invalid + "Hints.Min -1s, want >= 0s"},
		{"negative ceiling", func(s *Spec) { s.Hints = &Hints{Max: -time.Second} }, invalid + "Hints.Max -1s, want > 0s (0 means 5m, retryafter.Forever no ceiling)"},
		{"floor above ceiling", func(s *Spec) { s.Hints = &Hints{Min: time.Minute, Max: time.Second} }, contra + "Hints.Min 1m is above Hints.Max 1s"},
		{"hint on a permanent status", func(s *Spec) { s.Hints = &Hints{Statuses: []int{404}} }, contra + "Hints are honoured on status 404, which is Permanent"},
		{"hint on a status not retried", func(s *Spec) { s.Hints = &Hints{Statuses: []int{418}} }, contra + "Hints are honoured on status 418, which is not Retryable: a hint delays a retry, so the status must be retried"},
		{"no hint status", func(s *Spec) { s.Hints = &Hints{Statuses: []int{}} }, contra + "Hints.Statuses is empty: the code reads a hint on no status; want the statuses it reads one on (nil means 429 and 503), or Hints nil for code that reads none"},
		{"default hint statuses not retried", func(s *Spec) { s.Retryable = []int{500} }, contra + "Hints with no Statuses reads hints on 429 and 503, but the Spec retries neither: name the statuses the code reads a hint on (Hints.Statuses)"},
		{"give up with no ceiling", func(s *Spec) { s.Hints = &Hints{Max: retryafter.Forever, GiveUp: true} }, contra + "Hints.GiveUp with Hints.Max retryafter.Forever: no hint is above no ceiling, so the code never gives up on one; drop GiveUp or set a Max"},
		{"incomplete and contradictory", func(s *Spec) { s.Policy.Attempts, s.Permanent = 0, []int{503} }, incomplete + "the loop never stops: Policy.Attempts is 0 and Budget is 0, want Attempts, a Budget or both\n" + contra + "status 503 is both Retryable and Permanent"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ok
			tc.edit(&s)
			_, err := CheckPolicy(s, policyOf(nil))
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
	// Both edges of the status range are statuses.
	s := ok
	s.Retryable, s.Permanent = []int{100, 429, 599}, []int{400}
	if _, err := CheckPolicy(s, policyOf(nil)); err != nil {
		t.Errorf("statuses 100 and 599: %v, want no error", err)
	}
	// A floor equal to the ceiling is a fixed wait, not a contradiction.
	s = ok
	s.Hints = &Hints{Min: time.Second, Max: time.Second}
	if _, err := CheckPolicy(s, policyOf(nil)); err != nil {
		t.Errorf("Hints.Min == Max: %v, want no error", err)
	}
}

func TestNilAdapters(t *testing.T) {
	if _, err := CheckPolicy(labSpec(), nil); err == nil || !strings.Contains(err.Error(), "decide is nil") {
		t.Errorf("CheckPolicy(nil) = %v, want the nil decide named", err)
	}
	if _, err := CheckLoop(labSpec(), nil); err == nil || !strings.Contains(err.Error(), "the constructor is nil") {
		t.Errorf("CheckLoop(nil) = %v, want the nil constructor named", err)
	}
	if _, err := CheckClient(labSpec(), nil); err == nil || !strings.Contains(err.Error(), "the constructor is nil") {
		t.Errorf("CheckClient(nil) = %v, want the nil constructor named", err)
	}
	r, err := CheckLoop(labSpec(), func(Seams) Loop { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if res := r.Results[0]; res.Verdict != Failed || !strings.Contains(res.Message, "the loop adapter returned a nil Loop") {
		t.Errorf("a nil Loop: %v %q, want FAIL naming the nil Loop", res.Verdict, res.Message)
	}
}

func TestWaive(t *testing.T) {
	r, err := CheckLoop(labSpec(), loopOf(bugs{"attempts-counted-as-retries": true}),
		Waive("AttemptCount", "the team counts retries; ticket RK-12"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("with its one failure waived, the report does not pass:\n%s", r)
	}
	if !strings.Contains(r.String(), "AttemptCount            waived: the team counts retries; ticket RK-12") {
		t.Errorf("the report does not print the waiver and its reason:\n%s", r)
	}
	if _, err := CheckLoop(labSpec(), loopOf(nil), Waive("IdempotencyKey", "a loop sends no request")); err == nil ||
		!strings.Contains(err.Error(), `Waive("IdempotencyKey"): the loop has no such property, want one of WaitsOnTheClock, FirstAttemptImmediate,`) {
		t.Errorf("waiving a property the loop lacks: %v, want an error naming the loop's properties", err)
	}
	if _, err := CheckLoop(labSpec(), loopOf(nil), Waive("AttemptCount", "")); err == nil || !strings.Contains(err.Error(), "no reason") {
		t.Errorf("a waiver with no reason: %v, want an error", err)
	}
}

// A client that builds each attempt from the request's context but not
// its header is still told apart; one that keeps neither is a clear
// failure.
func TestClientRebuildingRequests(t *testing.T) {
	r, err := CheckClient(labSpec(), clientOf(bugs{"headers-dropped": true, "key-dropped": true}), Waive("IdempotencyKey", "the lab drops every header"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("a client that keeps the request's context but not its header:\n%s", r)
	}
	r, err = CheckClient(labSpec(), clientOf(bugs{"request-rebuilt": true}))
	if err != nil {
		t.Fatal(err)
	}
	res := r.Results[1] // FirstAttemptImmediate, the first that reads attempts
	if res.Verdict != Failed || !strings.Contains(res.Message, "with neither the X-Conformance-Call header nor the context of the request the suite passed to Do") {
		t.Errorf("a client that drops the request's header and context: %v %q, want a failure saying why the suite cannot read it", res.Verdict, res.Message)
	}
}

// Code whose only seam is a sleep function.
func TestSleepSeam(t *testing.T) {
	TestLoop(t, labSpec(), func(s Seams) Loop {
		l := newLab(Seams{Rand: s.Rand}, nil)
		l.sleep = s.Sleep
		return l.Do
	})
}

func TestReportString(t *testing.T) {
	r := &Report{Shape: "policy", Results: []Result{
		{Property: "WaitsInWindows", Verdict: Passed},
		verdict.New("FirstAttemptImmediate", Skipped, "a pure policy does not make the first attempt", nil),
	}}
	want := "conformance of the policy: every property holds or is skipped, saying why\n" +
		"    property               result\n" +
		"    WaitsInWindows         pass\n" +
		"    FirstAttemptImmediate  skip: a pure policy does not make the first attempt"
	if got := r.String(); got != want {
		t.Errorf("Report.String() =\n%s\nwant\n%s", got, want)
	}
	if !r.Passed() {
		t.Error("a report of a pass and a skip does not pass")
	}
	r.Results = append(r.Results,
		verdict.New("AttemptCount", Failed, "one too many", nil),
		Result{Property: "RetryAfterHTTPDate", Verdict: Failed, Cases: []Case{
			{Name: "imf-fixdate", Verdict: Passed},
			{Name: "rfc850", Verdict: Waived, Message: "RFC 850 dates not read (ticket 12)\nwaited 0s, want 7s"},
			{Name: "asctime", Verdict: Failed, Message: "waited 0s, want 7s"},
		}},
		verdict.New("NoLeaks", Waived, "known", nil),
		verdict.New("FreshEachCall", Stale, "waived (old), but the property holds: remove the Waive", nil),
		Result{Property: "RetryableStatuses", Verdict: Passed, Cases: []Case{{Name: "429", Verdict: Passed}, {Name: "503", Verdict: Skipped, Message: "not sent"}}},
	)
	if r.Passed() {
		t.Error("a report with a failure passes")
	}
	if got, want := r.Failed(), []string{"AttemptCount", "RetryAfterHTTPDate"}; !slices.Equal(got, want) {
		t.Errorf("Report.Failed() = %v, want %v", got, want)
	}
	for st, want := range map[Verdict][]string{
		Failed:  {"AttemptCount", "RetryAfterHTTPDate/asctime"},
		Waived:  {"RetryAfterHTTPDate/rfc850", "NoLeaks"},
		Stale:   {"FreshEachCall"},
		Skipped: {"FirstAttemptImmediate", "RetryableStatuses/503"},
		Passed:  {"WaitsInWindows", "RetryAfterHTTPDate/imf-fixdate", "RetryableStatuses/429"},
	} {
		if got := r.Names(st); !slices.Equal(got, want) {
			t.Errorf("Report.Names(%v) = %v, want %v", st, got, want)
		}
	}
	golden.Check(t, "report_string", r.String()+"\n")
	golden.Check(t, "report_summary", verdict.Summary(r)+"\n")
	for s, want := range map[Verdict]string{Passed: "pass", Failed: "FAIL", Skipped: "skip", Waived: "waived", Stale: "STALE", Verdict(9): "Verdict(9)"} {
		if got := s.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", int(s), got, want)
		}
	}
}

// A waiver whose property holds is stale: the Check form reports it as a
// failure.
func TestStaleWaiver(t *testing.T) {
	r, err := CheckLoop(labSpec(), loopOf(nil), Waive("AttemptCount", "we used to count retries"))
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range r.Results {
		if res.Property == "AttemptCount" && (res.Verdict != Stale || res.Message != "waived (we used to count retries), but the property holds: remove the Waive") {
			t.Errorf("a stale waiver: %v %q, want STALE saying to remove it", res.Verdict, res.Message)
		}
	}
	if r.Passed() || len(r.Failed()) != 0 || !slices.Equal(r.Names(Stale), []string{"AttemptCount"}) {
		t.Errorf("a stale waiver: Passed %v, Failed %v, Names(Stale) %v; want not passed, no failure, AttemptCount stale", r.Passed(), r.Failed(), r.Names(Stale))
	}
}

// The Test forms, run in a child process of the test binary so that their
// failures can be read: a failing property fails its named subtest with
// the schedule, a waived failure is a skip with its reason, and a stale
// waiver fails.
func TestTestFormsInAChild(t *testing.T) {
	if os.Getenv("CONFORMANCE_CHILD") != "" {
		t.Skip("in the child")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
	cmd.Env = append(os.Environ(), "CONFORMANCE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passed, want it to fail:\n%s", out)
	}
	for _, want := range []string{
		"--- FAIL: TestChild/buggy/AttemptCount",
		"retrytest: got 7 attempts (6 retries), want 6 (5 retries)",
		"--- PASS: TestChild/buggy/WaitsInWindows",
		"--- SKIP: TestChild/waived/AttemptCount",
		"waived: the team counts retries",
		"--- FAIL: TestChild/stale/AttemptCount",
		"waived (an old gap), but the property holds: remove the Waive",
		"--- FAIL: TestChild/bubble/AttemptCount",
		"--- SKIP: TestChild/bubble/BudgetHonoured",
		// Finding 1: a skip decided inside a bubble is a skip, not the
		// pass synctest.Test would make of it.
		"--- SKIP: TestChild/bubble-no-retry/CancelDuringWait",
		"--- SKIP: TestChild/bubble-no-retry/DeadlineCutsWait",
		"--- SKIP: TestChild/bubble-no-retry/WaitsInWindows/max",
		// Cases are subtests of their property.
		"--- FAIL: TestChild/case/RetryAfterHTTPDate/rfc850",
		"--- PASS: TestChild/case/RetryAfterHTTPDate/imf-fixdate",
		// The one line after the run, and the Spec's warnings.
		"conformance of the loop: 13 pass, 1 FAIL, 2 skip — BudgetHonoured skipped: the Spec declares no Budget; AttemptTimeout skipped: the Spec declares no AttemptTimeout",
		"conformance: warning: Policy.First 1s is above Policy.Cap 400ms: every wait is the cap",
		"--- FAIL: TestChild/clamps-in-loop",
		"conformance: Clamps applies to a Retry-After parser (TestParser, CheckParser); the loop entry has no parser to clamp",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
	// Finding 8: a failure points at the line of the test that called the
	// Test form, not into the suite.
	src, err := os.ReadFile("api_test.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, `t.Run("buggy", func(t *testing.T) { TestLoop(t, labSpec(), buggy) })`) {
			line = i + 1
		}
	}
	if want := fmt.Sprintf("api_test.go:%d: retrytest: got 7 attempts (6 retries), want 6 (5 retries)", line); line == 0 || !strings.Contains(string(out), want) {
		t.Errorf("the failure does not point at the call of TestLoop (%q):\n%s", want, out)
	}
}

// TestChild is the child of TestTestFormsInAChild: it fails on purpose.
func TestChild(t *testing.T) {
	if os.Getenv("CONFORMANCE_CHILD") == "" {
		t.Skip("run by TestTestFormsInAChild")
	}
	buggy := loopOf(bugs{"attempts-counted-as-retries": true})
	t.Run("buggy", func(t *testing.T) { TestLoop(t, labSpec(), buggy) })
	t.Run("waived", func(t *testing.T) { TestLoop(t, labSpec(), buggy, Waive("AttemptCount", "the team counts retries")) })
	t.Run("stale", func(t *testing.T) { TestLoop(t, labSpec(), loopOf(nil), Waive("AttemptCount", "an old gap")) })
	t.Run("bubble", func(t *testing.T) {
		TestClient(t, labSpec(), clientOf(bugs{"attempts-counted-as-retries": true}), RunInBubble())
	})
	t.Run("bubble-no-retry", func(t *testing.T) {
		TestClient(t, labSpec(), clientOf(bugs{"never-retries": true}), RunInBubble())
	})
	t.Run("case", func(t *testing.T) { TestClient(t, labSpec(), clientOf(bugs{"rfc850-not-read": true})) })
	// Issue 32, point 6: an option an entry cannot honour fails its Test
	// form too, never ignored.
	t.Run("clamps-in-loop", func(t *testing.T) { TestLoop(t, labSpec(), loopOf(nil), Clamps(0, time.Minute)) })
	t.Run("warning", func(t *testing.T) {
		spec := labSpec()
		spec.Policy.First = time.Second
		TestPolicy(t, spec, policyOf(nil), Waive("WaitsInWindows", "the lab's first is 100ms"), Waive("JitterFromSource", "likewise"), Waive("CapReached", "likewise"))
	})
}
