package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// TestOptionMatrix (issue 32, point 6): every Option, on every entry, in
// the Check form, either works or is refused with an error naming why;
// none is ignored. The Test forms share the check (runTest calls
// checkOptions as runCheck does): TestChild/clamps-in-loop shows one
// refused, TestPolicyInBubble one honoured.
func TestOptionMatrix(t *testing.T) {
	spec := labSpec()
	entries := map[string]func(opts ...Option) (*Report, error){
		"policy": func(opts ...Option) (*Report, error) { return CheckPolicy(spec, policyOf(nil), opts...) },
		"loop":   func(opts ...Option) (*Report, error) { return CheckLoop(spec, loopOf(nil), opts...) },
		"client": func(opts ...Option) (*Report, error) { return CheckClient(spec, clientOf(nil), opts...) },
		"parser": func(opts ...Option) (*Report, error) { return CheckParser(retryafter.Parse, opts...) },
	}
	waiveFor := map[string]string{"policy": "AttemptCount", "loop": "AttemptCount", "client": "AttemptCount", "parser": "Seconds/ra001"}
	for entry, check := range entries {
		// RunInBubble: no Check form can open a bubble.
		if _, err := check(RunInBubble()); err != errBubbleNeedsT {
			t.Errorf("%s, RunInBubble in the Check form: %v, want %v", entry, err, errBubbleNeedsT)
		}
		// Clamps: the parser's alone.
		_, err := check(Clamps(0, 5*time.Minute))
		switch {
		case entry == "parser" && err != nil:
			t.Errorf("parser, Clamps: %v, want it honoured", err)
		case entry != "parser" && (err == nil || !strings.Contains(err.Error(), "Clamps applies to a Retry-After parser (TestParser, CheckParser); the "+entry+" entry has no parser to clamp")):
			t.Errorf("%s, Clamps: %v, want it refused, naming the entries that take it", entry, err)
		}
		// Waive: every entry; a waiver of a property that holds is stale.
		r, err := check(Waive(waiveFor[entry], "a test of the option"))
		if err != nil || len(r.Names(Stale)) != 1 {
			t.Errorf("%s, Waive of a property that holds: %v, stale %v, want it honoured (stale)", entry, err, r.Names(Stale))
		}
	}
	if _, err := CheckParser(retryafter.Parse, Clamps(time.Minute, time.Second)); err == nil || !strings.Contains(err.Error(), "Clamps(1m, 1s): want 0 <= min <= max") {
		t.Errorf("Clamps(1m, 1s): %v", err)
	}
}

// readsNow is a pure policy that, like River's NextRetry, works out an
// instant from time.Now and returns the wait until it: outside a bubble
// its waits drift short by the nanoseconds between the two reads.
func readsNow(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
	d := policyOf(nil)(failed, o, rng)
	if !d.Retry {
		return d
	}
	at := time.Now().Add(d.Delay)
	for range 1000 {
		_ = rng.Uint64() // work between the reads, as a real policy does
	}
	d.Delay = time.Until(at)
	return d
}

// TestPolicyInBubble (issue 32, point 6): RunInBubble runs a policy's
// calls in a bubble, where time.Now is the bubble's and stands still, so
// the policy that reads it decides exact waits; before, TestPolicy ran
// them outside and said nothing.
func TestPolicyInBubble(t *testing.T) {
	r := TestPolicy(t, labSpec(), readsNow, RunInBubble())
	if !r.Passed() {
		t.Errorf("a policy reading time.Now, in bubbles:\n%s", r)
	}
	// The control: outside a bubble the same policy's waits drift.
	if r, err := CheckPolicy(labSpec(), readsNow); err != nil || r.Passed() {
		t.Errorf("a policy reading time.Now, outside a bubble: %v, passed %v; want its drift seen", err, r.Passed())
	}
}

// TestBodiesLeftOpen (issue 32, point 2): a client that never closes the
// body of a response it retries fails NoLeaks/bodies, naming the requests,
// with or without an http.Client Timeout, on the fake clock and in a
// bubble; before, NoLeaks passed it (the transport's bodies were
// io.NopCloser) unless a Timeout left a goroutine behind.
func TestBodiesLeftOpen(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Hour} {
		for _, bubble := range []bool{false, true} {
			var opts []Option
			if bubble {
				opts = append(opts, inBubbles(t))
			}
			client := func(s Seams) Do {
				return (&http.Client{Transport: newLab(s, bugs{"body-left-open": true}), Timeout: timeout}).Do
			}
			r, err := CheckClient(labSpec(), client, append(opts, only("WaitsOnTheClock", "NoLeaks"))...)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("timeout %s, bubble %v", timeout, bubble)
			if got := r.Names(Failed); !slices.Equal(got, []string{"NoLeaks/bodies"}) {
				t.Errorf("%s: failed %v, want [NoLeaks/bodies]\n%s", name, got, r)
				continue
			}
			for _, res := range r.Results {
				for _, c := range res.Cases {
					if c.Name == "bodies" && !strings.Contains(c.Message, "httpscript: 2 response bodies never closed: requests 1 (500 Internal Server Error), 2 (500 Internal Server Error)") {
						t.Errorf("%s: %s\nwant the two requests named", name, c.Message)
					}
				}
			}
		}
	}
}

// TestNoLeaksInABubbleSaysWhatItSaw (issue 32, point 1): in a bubble no
// API lists the time package's pending timers, so a ticker of the time
// package never stopped is invisible there; NoLeaks's timers case says so,
// a skip, instead of a pass claiming it. A ticker of Seams.Clock fails
// NoLeaks, on the fake clock and, since the bubble's Seams.Clock keeps a
// register (issue 37), in a bubble.
func TestNoLeaksInABubbleSaysWhatItSaw(t *testing.T) {
	timeTicker := func(s Seams) Loop {
		l := newLab(s, nil)
		return func(ctx context.Context, op func(context.Context) error) error {
			time.NewTicker(time.Second) // of the time package, never stopped
			return l.Do(ctx, op)
		}
	}
	tickerLeft := func(s Seams) Loop {
		l := newLab(s, nil)
		return func(ctx context.Context, op func(context.Context) error) error {
			l.clk.NewTicker(time.Second) // of Seams.Clock, never stopped
			return l.Do(ctx, op)
		}
	}
	r, err := CheckLoop(labSpec(), timeTicker, inBubbles(t), only("NoLeaks"))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "NoLeaks"); res.Verdict != Passed || !slices.Contains(r.Names(Skipped), "NoLeaks/timers") {
		t.Errorf("a ticker left in a bubble: NoLeaks %v, skipped %v; want NoLeaks/timers skipped, saying a bubble lists no timers", res.Verdict, r.Names(Skipped))
	}
	if !strings.Contains(r.String(), "NoLeaks   pass: timers skipped") {
		t.Errorf("the report does not show the timers skipped:\n%s", r)
	}
	for _, bubble := range []bool{false, true} {
		opts := []Option{only("WaitsOnTheClock", "NoLeaks")}
		if bubble {
			opts = append(opts, inBubbles(t))
		}
		r, err = CheckLoop(labSpec(), tickerLeft, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Failed(); !slices.Equal(got, []string{"NoLeaks"}) {
			t.Errorf("a ticker left on Seams.Clock, bubble %v: failed %v, want [NoLeaks]\n%s", bubble, got, r)
		}
	}
}

// TestLeftInABubbleBlamesTheCall (issue 32, point 7): a client that leaves
// a goroutine blocked for ever when a bubble ends fails NoLeaks alone,
// naming the property whose call left it; the properties that happened to
// be running stand on what they observed (before, each failed with the
// leak). Without NoLeaks in the run, the leak is named in the warnings and
// the log, never as another property's failure.
func TestLeftInABubbleBlamesTheCall(t *testing.T) {
	leaky := func(s Seams) Do {
		var once sync.Once
		l := newLab(s, nil)
		return (&http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			once.Do(func() { go func() { select {} }() }) // blocked for ever: a bubble's deadlock
			return l.RoundTrip(r)
		})}).Do
	}
	r, err := CheckClient(labSpec(), leaky, inBubbles(t), only("FirstAttemptImmediate", "RetryableStatuses", "NoLeaks"))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Failed(); !slices.Equal(got, []string{"NoLeaks"}) {
		t.Fatalf("failed %v, want [NoLeaks] alone\n%s", got, r)
	}
	msg := ""
	for _, res := range r.Results {
		for _, cs := range res.Cases {
			if res.Property == "NoLeaks" && cs.Name == "bubbles" {
				msg = cs.Message
			}
		}
	}
	for _, want := range []string{"left by a call of FirstAttemptImmediate: the code left goroutines blocked for ever in the bubble", "left by a call of RetryableStatuses: "} {
		if !strings.Contains(msg, want) {
			t.Errorf("NoLeaks/bubbles does not say %q:\n%s", want, msg)
		}
	}
	r, err = CheckClient(labSpec(), leaky, inBubbles(t), only("FirstAttemptImmediate"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "NoLeaks did not run, and goroutines were left blocked in bubbles: left by a call of FirstAttemptImmediate") {
		t.Errorf("NoLeaks left out: passed %v, warnings %q; want a pass and the leak in the warnings", r.Passed(), r.Warnings)
	}
}

// roundTripFunc is a RoundTripper of a func.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
