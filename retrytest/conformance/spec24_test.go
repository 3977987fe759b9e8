package conformance

import (
	"bytes"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Berlin on any machine

	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
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
			if res := result(t, r, "WaitsInWindows"); len(res.Cases) != 1 || res.Cases[0].Name != "sample" || res.Cases[0].Verdict != Passed {
				t.Errorf("WaitsInWindows: %+v, want one passing case, sample", res)
			}
			for bug, want := range map[string][]string{
				"no-jitter": {"WaitsInWindows", "NoSpikeAtCap"},
				// The jitter spans less than declared: the sample
				// sees it where the seam's edges would.
				"cap-in-wrong-unit": {"WaitsInWindows", "CapReached", "NoSpikeAtCap"},
				"half-jitter":       {"WaitsInWindows", "NoSpikeAtCap"},
				// Issue 32, point 8: an exponent off by one fails
				// WaitsInWindows alone; before, which statuses it failed
				// besides was random (each case's one draw against the
				// declared window).
				"exponent-off-by-one": {"WaitsInWindows"},
			} {
				if got := check(bugs{bug: true}).Failed(); !slices.Equal(got, want) {
					t.Errorf("%s with %s: failed %v, want %v", shape, bug, got, want)
				}
			}
			msg := result(t, check(bugs{"half-jitter": true}), "WaitsInWindows").Cases[0].Message
			if !strings.Contains(msg, "the 1st eighth of [0s, 100ms]") || !strings.Contains(msg, "the jitter spans less than the declared window") {
				t.Errorf("half-jitter: %s", msg)
			}
		})
	}
}

// A sample judges every retry that every call reaches, however many
// retries share it: with 25 retries each held a twenty-fifth of the
// waits, under the one-in-twenty a rare retry has, so no eighth was
// judged and a jitter half as wide as declared passed (found on asynq's
// default, 25 retries).
func TestOwnRandomManyRetries(t *testing.T) {
	p := retrytest.Policy{First: time.Second, Growth: 1, Jitter: retrytest.FullJitter, Attempts: 26}
	spec := Spec{Policy: p, OwnRandom: true}
	decide := func(half bool) retrytest.DecideFunc {
		return func(failed int, o retrytest.Outcome, _ *mathrand.Rand) retrytest.Decision {
			if slices.Contains(DefaultPermanent, o.Status) {
				return retrytest.Decision{Reason: "permanent"}
			}
			d := p.Decide(failed, o, mathrand.New(seqrand.Max())) // the decision; the wait is drawn below
			if d.Retry {
				top := time.Second + 1
				if half {
					top = 500*time.Millisecond + 1
				}
				d.Delay = mathrand.N(top)
			}
			return d
		}
	}
	if r, err := CheckPolicy(spec, decide(false)); err != nil || !r.Passed() {
		t.Fatalf("the whole window, 25 retries: %v\n%s", err, r)
	}
	r, err := CheckPolicy(spec, decide(true))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Failed(); !slices.Equal(got, []string{"WaitsInWindows"}) {
		t.Fatalf("half the window, 25 retries: failed %q, want WaitsInWindows\n%s", got, r)
	}
	msg := result(t, r, "WaitsInWindows").Cases[0].Message
	for _, want := range []string{"retry 1 never waited in [500ms, 625ms), the 5th eighth of [0s, 1s]", "retry 25 never waited in [875ms, 1s), the 8th eighth of [0s, 1s]"} {
		if !strings.Contains(msg, want) {
			t.Errorf("half the window: the message does not say %q:\n%s", want, msg)
		}
	}
}

// On a fake clock too (once: a settle outside a bubble costs a goroutine
// dump per timer, so a sample takes half a second there).
func TestOwnRandomOnFakeClock(t *testing.T) {
	r, err := CheckLoop(ownRandomSpec(), loopOf(bugs{"global-rand": true}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() || result(t, r, "WaitsInWindows").Cases[0].Verdict != Passed {
		t.Errorf("the lab drawing from the global source, on a fake clock:\n%s", r)
	}
}

// Hints.Fields: a client that reads Retry-After-Ms and X-Ms-Retry-After-Ms
// before Retry-After gets a case in each field and one with all three;
// reading milliseconds as seconds, or Retry-After first, fails the case
// named for it.
func TestHintFields(t *testing.T) {
	spec := labSpec()
	spec.Hints.Fields = []string{"retry-after-ms", "X-Ms-Retry-After-Ms", "Retry-After"}
	check := func(b bugs) *Report {
		t.Helper()
		b["reads-ms-fields"] = true
		r, err := CheckClient(spec, clientOf(b), inBubbles(t))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := check(bugs{})
	if !r.Passed() {
		t.Errorf("a client reading three fields, declared so:\n%s", r)
	}
	res := result(t, r, "HintFields")
	var names []string
	for _, c := range res.Cases {
		names = append(names, c.Name)
	}
	if want := []string{"retry-after-ms", "x-ms-retry-after-ms", "retry-after", "precedence"}; !slices.Equal(names, want) {
		t.Errorf("HintFields cases %v, want %v", names, want)
	}
	if got := check(bugs{"ms-read-as-seconds": true}).Names(Failed); !slices.Equal(got, []string{"HintFields/retry-after-ms", "HintFields/x-ms-retry-after-ms", "HintFields/precedence"}) {
		t.Errorf("milliseconds read as seconds: failed %v", got)
	}
	if got := check(bugs{"ms-after-seconds": true}).Names(Failed); !slices.Equal(got, []string{"HintFields/precedence"}) {
		t.Errorf("Retry-After read before the ms fields: failed %v", got)
	}
	// A field read after Retry-After where the Spec says before.
	spec.Hints.Fields = []string{"X-Amz-Retry-After", "Retry-After"}
	if got := check(bugs{}).Names(Failed); !slices.Equal(got, []string{"HintFields/precedence"}) {
		t.Errorf("a field read in another order: failed %v", got)
	}
	// A field the client does not read at all.
	spec.Hints.Fields = []string{"X-RateLimit-Reset-Requests", "Retry-After"}
	if got := check(bugs{}).Names(Failed); !slices.Equal(got, []string{"HintFields/x-ratelimit-reset-requests", "HintFields/precedence"}) {
		t.Errorf("a field the client does not read: failed %v", got)
	}
	// Fields the suite cannot write are an error naming them.
	spec.Hints.Fields = []string{"Retry-In"}
	if _, err := CheckClient(spec, clientOf(nil)); err == nil || !strings.Contains(err.Error(), `Hints.Fields names "Retry-In", which the suite cannot write: want some of Retry-After, Retry-After-Ms,`) {
		t.Errorf("an unknown field: %v", err)
	}
	// Code that reads no Retry-After skips its properties, saying so.
	spec.Hints.Fields = []string{"Retry-After-Ms"}
	r = check(bugs{})
	skippedNaming(t, r, "RetryAfterHTTPDate", "the code does not read Retry-After (Hints.Fields)")
}

// The hint cases the suite did not send before issue 24: whitespace round
// a value, a date in a zone other than GMT, a date in the past.
func TestNewHintCases(t *testing.T) {
	r, err := CheckClient(labSpec(), clientOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"RetryAfterSeconds/whitespace", "RetryAfterHTTPDate/zone", "RetryAfterFloored/past-date"} {
		if !slices.Contains(r.Names(Passed), name) {
			t.Errorf("%s did not pass for the lab, which reads it right: passed %v", name, r.Names(Passed))
		}
	}
	// Hints.ZeroMeansBackoff: 0 and a past date are no hint.
	spec := labSpec()
	spec.Hints.ZeroMeansBackoff = true
	r, err = CheckClient(spec, clientOf(bugs{"zero-is-backoff": true}))
	if err != nil || !r.Passed() {
		t.Errorf("a client that takes 0 for no hint, declared so: %v\n%s", err, r)
	}
	r, err = CheckClient(spec, clientOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(Failed); !slices.Equal(got, []string{"RetryAfterFloored/zero", "RetryAfterFloored/past-date"}) {
		t.Errorf("a client that floors 0 where the Spec says it means the backoff: failed %v", got)
	}
}

// The zone case reads the code, not the machine: a reader that takes any
// zone abbreviation for GMT fails it in UTC and in Berlin, whose
// time.Local defines CEST (time.Parse would read "CEST" right there, by
// chance, and the case passed on that machine and failed on others).
func TestZoneCaseIsNotTheMachines(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, local := range []*time.Location{time.UTC, berlin} {
		time.Local = local
		r, err := CheckClient(labSpec(), clientOf(bugs{"rfc1123-any-zone": true}), only("RetryAfterHTTPDate"))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Names(Failed); !slices.Equal(got, []string{"RetryAfterHTTPDate/zone"}) {
			t.Errorf("time.Local %s: a reader that takes any zone for GMT failed %v, want [RetryAfterHTTPDate/zone]\n%s", local, got, r)
		}
		r, err = CheckClient(labSpec(), clientOf(nil), only("RetryAfterHTTPDate"))
		if err != nil || !r.Passed() {
			t.Errorf("time.Local %s: the lab, which reads only GMT: %v\n%s", local, err, r)
		}
	}
}

// bodyRecorder wraps a client's transport and records every body the
// suite's replies carried, by status.
type bodyRecorder struct {
	rt     http.RoundTripper
	mu     *sync.Mutex
	bodies map[int][]string
}

func (b bodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := b.rt.RoundTrip(req)
	if resp != nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close() // the suite's NoLeaks/bodies holds every body to a Close
		resp.Body = io.NopCloser(bytes.NewReader(body))
		b.mu.Lock()
		b.bodies[resp.StatusCode] = append(b.bodies[resp.StatusCode], string(body))
		b.mu.Unlock()
	}
	return resp, err
}

// Spec.Bodies and Spec.Signals: the vendor's error document comes with
// every error status, and a response whose body flips the verdict is a
// case of RetrySignals; a client that reads the status alone fails
// those cases.
func TestRetrySignals(t *testing.T) {
	spec := labSpec()
	spec.Bodies = map[int]string{0: `{"error":{"message":"try later"}}`, 404: `{"error":{"message":"no such item"}}`}
	spec.Signals = []Signal{
		{Name: "final", Status: 503, Body: `{"error":{"retry":false}}`},
		{Name: "forced", Status: 409, Body: `{"error":{"retry":true}}`, Retry: true},
		{Name: "plain", Status: 503, Body: `{"error":{}}`, Retry: true, StatusDecides: true},
	}
	var mu sync.Mutex
	bodies := map[int][]string{}
	client := func(b bugs) func(Seams) Do {
		return func(s Seams) Do {
			s.Transport = bodyRecorder{s.Transport, &mu, bodies}
			return (&http.Client{Transport: newLab(s, b)}).Do
		}
	}
	r, err := CheckClient(spec, client(bugs{"reads-body": true}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("a client that reads the body's flag, declared so:\n%s", r)
	}
	for st, bs := range bodies {
		want := spec.Bodies[0]
		switch st {
		case 200, 409:
			continue
		case 404:
			want = spec.Bodies[404]
		}
		for _, b := range bs {
			if b != want && !slices.ContainsFunc(spec.Signals, func(v Signal) bool { return v.Body == b }) {
				t.Errorf("a %d came with body %q, want %q", st, b, want)
			}
		}
	}
	if len(bodies[404]) == 0 || len(bodies[503]) == 0 {
		t.Errorf("bodies seen: %v, want 404s and 503s among them", bodies)
	}
	r, err = CheckClient(spec, client(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(Failed); !slices.Equal(got, []string{"RetrySignals/final", "RetrySignals/forced"}) {
		t.Errorf("a client that reads the status alone: failed %v", got)
	}
	// The same contract for a pure policy, which sees the body in its
	// Outcome.
	if r, err := CheckPolicy(spec, policyOf(bugs{"reads-body": true})); err != nil || !r.Passed() {
		t.Errorf("a policy that reads the body's flag: %v\n%s", err, r)
	}
	if r, _ := CheckPolicy(spec, policyOf(nil)); !slices.Equal(r.Names(Failed), []string{"RetrySignals/final", "RetrySignals/forced"}) {
		t.Errorf("a policy that reads the status alone: failed %v", r.Names(Failed))
	}
	// A Signal whose body makes no difference to the code, not declared
	// so, fails: its control (a 503 with the Spec's body) is retried too
	// (issue 32, point 4: before, it passed although the body's effect
	// was never seen).
	undeclared := spec
	undeclared.Signals = []Signal{{Name: "plain", Status: 503, Body: `{"error":{}}`, Retry: true}}
	for _, shape := range []string{"client", "policy"} {
		var r *Report
		if shape == "client" {
			r, _ = CheckClient(undeclared, client(bugs{"reads-body": true}), only("WaitsOnTheClock", "RetrySignals"))
		} else {
			r, _ = CheckPolicy(undeclared, policyOf(bugs{"reads-body": true}), only("RetrySignals"))
		}
		if got := r.Names(Failed); !slices.Equal(got, []string{"RetrySignals/plain"}) || !strings.Contains(r.String(), "the Signal's body made no difference: 503 Service Unavailable with the Spec's body for it (Bodies[503]) and without the Signal's header was retried too") {
			t.Errorf("%s, a signal that makes no difference, undeclared: failed %v\n%s", shape, got, r)
		}
	}
	spec.Signals = append(spec.Signals, Signal{Name: "Final", Status: 503})
	if _, err := CheckClient(spec, client(nil)); err == nil || !strings.Contains(err.Error(), `Signals[3].Name "Final", want one lowercase word`) {
		t.Errorf("a Verdict name that is not one lowercase word: %v", err)
	}
}

// Spec.AttemptTimeout, in both ways of cutting an attempt (issue 31): a
// loop or client that ends the attempt's context and waits for it to
// return, declared so, passes, and so does one that abandons it, declared
// so; each of the other's behaviour, cutting an attempt and giving up,
// not cutting it, and (abandoning) leaving its goroutine blocked on a send
// fail AttemptTimeout alone, saying so.
func TestAttemptTimeout(t *testing.T) {
	for _, abandons := range []bool{false, true} {
		spec := labSpec()
		spec.AttemptTimeout = 2 * time.Second
		spec.AbandonsAttempt = abandons
		timed := func(b bugs) func(Seams) *lab {
			return func(s Seams) *lab {
				l := newLab(s, b)
				l.attemptTimeout, l.abandons = 2*time.Second, abandons
				return l
			}
		}
		loop := func(b bugs) func(Seams) Loop { return func(s Seams) Loop { return timed(b)(s).Do } }
		client := func(b bugs) func(Seams) Do {
			return func(s Seams) Do { return (&http.Client{Transport: timed(b)(s)}).Do }
		}
		wants := map[string]string{
			"timeout-ends-call": "the first attempt timed out after 2s and the call returned",
			"timeout-ignored":   "the first attempt hangs past the 2s AttemptTimeout and the call still waits for it: the attempt was not cut at the timeout by ending its context",
			// A loop that abandons the attempt whose context it ended:
			// the attempt returns 1s and the widest backoff later.
			"abandons": "before the first, whose context ended at the 2s AttemptTimeout, returned (it ",
		}
		if abandons {
			wants = map[string]string{
				"timeout-ends-call": "the first attempt timed out after 2s and the call returned",
				"timeout-ignored":   "the first attempt hangs past the 2s AttemptTimeout and the call still waits for it: the attempt was not cut at the timeout by leaving it",
				"waits-for-cut":     "the first attempt hangs past the 2s AttemptTimeout and the call still waits for it: the attempt was not cut at the timeout by leaving it, deaf to its context",
				"timeout-leaks":     "after the hung attempt ended, goroutines of the call are still running",
			}
		}
		for _, bubble := range []bool{false, true} {
			var opts []Option
			if bubble {
				opts = append(opts, inBubbles(t))
			}
			for _, shape := range []string{"loop", "client"} {
				run := func(b bugs) *Report {
					t.Helper()
					var r *Report
					var err error
					opts := opts
					if len(b) > 0 {
						opts = append(opts[:len(opts):len(opts)], only("WaitsOnTheClock", "AttemptTimeout"))
					}
					if shape == "loop" {
						r, err = CheckLoop(spec, loop(b), opts...)
					} else {
						r, err = CheckClient(spec, client(b), opts...)
					}
					if err != nil {
						t.Fatal(err)
					}
					return r
				}
				name := fmt.Sprintf("%s, bubble %v, abandons %v", shape, bubble, abandons)
				if r := run(bugs{}); !r.Passed() {
					t.Errorf("%s: the lab cutting attempts at 2s, declared so:\n%s", name, r)
				}
				for bug, want := range wants {
					r := run(bugs{bug: true})
					if got := r.Failed(); !slices.Equal(got, []string{"AttemptTimeout"}) {
						t.Errorf("%s with %s: failed %v, want [AttemptTimeout]\n%s", name, bug, got, r)
						continue
					}
					if msg := result(t, r, "AttemptTimeout").Message; !strings.Contains(msg, want) {
						t.Errorf("%s with %s: %s\nwant it to say %q", name, bug, msg, want)
					}
				}
			}
		}
	}
}

// TestParser: a bare Retry-After parser in the same one call, its cases
// the corpus's, waived by case or by group as the rest of the suite is.
func TestParserEntry(t *testing.T) {
	r := TestParser(t, retryafter.Parse)
	if !r.Passed() || r.Shape != "parser" {
		t.Fatalf("retryafter.Parse:\n%s", r)
	}
	var names []string
	for _, res := range r.Results {
		names = append(names, res.Property)
	}
	if !slices.Contains(names, "Seconds") || !slices.Contains(names, "HTTPDate") {
		t.Errorf("properties %v, want Seconds and HTTPDate among them", names)
	}
	if n := len(result(t, r, "HTTPDate").Cases); n < 20 {
		t.Errorf("HTTPDate has %d cases, want the corpus's date cases", n)
	}
	atoi := func(v string, _ time.Time) (time.Duration, error) {
		n, err := strconv.Atoi(v)
		return time.Duration(n) * time.Second, err
	}
	r, err := CheckParser(atoi)
	if err != nil {
		t.Fatal(err)
	}
	failed := r.Names(Failed)
	if !slices.Contains(failed, "HTTPDate/ra052") || !slices.Contains(failed, "Seconds/ra013") {
		t.Errorf("strconv.Atoi: failed %v, want the dates and the wrapping 2^63-1 seconds among them", failed)
	}
	// A group waived whole, and its cases listed as covered.
	r, err = CheckParser(atoi, Waive("HTTPDate", "dates are not read"))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "HTTPDate"); res.Verdict != Waived || !strings.HasPrefix(res.Message, "dates are not read (covers ra") {
		t.Errorf("HTTPDate waived: %v %q", res.Verdict, res.Message)
	}
	if _, err := CheckParser(nil); err != errNilParse {
		t.Errorf("CheckParser(nil) = %v, want %v", err, errNilParse)
	}
}
