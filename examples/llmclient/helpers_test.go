package llmclient_test

import (
	"context"
	"time"

	"github.com/retrykit/retrykit/examples/llmclient"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

const apiURL = "https://api.example.com/v1/chat/completions"

// The provider's replies.
var (
	rateLimited = httpscript.Respond(429).Body(`{"error":{"message":"Rate limit reached"}}`)
	answer      = httpscript.Respond(200).Body(`{"choices":[{"message":{"content":"billing"}}]}`)
)

// backoffFunc is WithBackoff's shape, for running the same checks against
// the old implementations.
type backoffFunc = func(context.Context, func(context.Context) (string, error), llmclient.Options) (string, error)

// fixture is what the scenarios need of a test: a *testing.T, or the
// Examples' retrytest.ExampleT.
type fixture interface {
	fakeclock.FixtureT
	FailNow()
}

// harness is a fake clock, a transport that answers with a script and
// times the requests on the clock, and a client that sends through it.
type harness struct {
	clk *fakeclock.Clock
	tr  *httpscript.Transport
	c   *llmclient.Client
}

func newHarness(t fixture, replies ...httpscript.Reply) *harness {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, replies...).WithClock(clk)
	return &harness{clk: clk, tr: tr, c: &llmclient.Client{HTTP: tr.Client(), URL: apiURL}}
}

// call is a call of the code under test on the harness's clock, started
// by start or classify; out is what it returned, once it has.
type call struct {
	*recorder.Call
	out string
}

// result is what a call returned, and when, on the fake clock.
type result struct {
	out string
	err error
	at  time.Duration
}

// start runs withBackoff over one completion per attempt on a goroutine of
// its own, as the seed starts the operation without awaiting it, and
// returns the call. The options are o on the harness's clock (see
// options). The call's context is canceled when the test ends.
func (h *harness) start(t fixture, withBackoff backoffFunc, o llmclient.Options) *call {
	o = h.options(o)
	return h.run(t, func(ctx context.Context) (string, error) {
		return withBackoff(ctx, func(ctx context.Context) (string, error) { return h.c.Complete(ctx, "Where do I send my invoice?") }, o)
	})
}

// classify is start for the client's own Classify, with o as its backoff.
func (h *harness) classify(t fixture, o llmclient.Options) *call {
	h.c.Backoff = h.options(o)
	return h.run(t, func(ctx context.Context) (string, error) { return h.c.Classify(ctx, "Where do I send my invoice?") })
}

// options returns o with the harness's clock and, unless o has one, a
// random source pinned at the top of its range, so each delay is its full
// ceiling.
func (h *harness) options(o llmclient.Options) llmclient.Options {
	o.Clock = h.clk
	if o.Random == nil {
		o.Random = seqrand.Max().Float64
	}
	return o
}

func (h *harness) run(t fixture, f func(ctx context.Context) (string, error)) *call {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // after the clock's own cleanup was registered, so it runs first
	c := new(call)
	c.Call = recorder.Start(h.clk, func() error {
		var err error
		c.out, err = f(ctx)
		return err
	})
	return c
}

// returned is the result of a call that has returned by now: after an
// advance, the code under test has settled, so a call still running is
// waiting for something, and the test fails saying so instead of hanging.
func returned(t fixture, h *harness, c *call) result {
	t.Helper()
	if !c.Returned() {
		t.Fatalf("the call has not returned; waiting on the clock: %v", h.clk.Pending())
		return result{}
	}
	return result{out: c.out, err: c.Err(), at: c.At()}
}

// The scenarios the old implementations fail, each returning the error of
// the retrytest check that the fixed WithBackoff passes.

// nothingBeforeTheFirstAttempt: the first request is made at once.
func nothingBeforeTheFirstAttempt(t fixture, withBackoff backoffFunc) error {
	h := newHarness(t, rateLimited.Times(2), answer)
	h.start(t, withBackoff, llmclient.Options{MaxAttempts: 3})
	h.clk.Step(0)
	return retrytest.CheckAttempts(h.tr, 1)
}

// delaysDouble: attempts at 0, 500ms and 1.5s, the seed's
// expect(at).toEqual([0, 500, 1500]).
func delaysDouble(t fixture, withBackoff backoffFunc) error {
	h := newHarness(t, rateLimited.Times(2), answer)
	h.start(t, withBackoff, llmclient.Options{MaxAttempts: 3})
	h.clk.Step(time.Minute)
	return retrytest.CheckAttemptsAt(h.tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
}

// ceilingLadder is the 500ms ladder doubling to an 8s ceiling.
var ceilingLadder = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}

// sixthDelayAtTheCeiling: 500ms, 1s, 2s, 4s, 8s, 8s.
func sixthDelayAtTheCeiling(t fixture, withBackoff backoffFunc) error {
	h := newHarness(t, rateLimited.Times(6), answer)
	h.start(t, withBackoff, llmclient.Options{Base: 500 * time.Millisecond, MaxDelay: 8 * time.Second, MaxAttempts: 7})
	h.clk.Step(time.Minute)
	return retrytest.CheckDelays(h.tr, ceilingLadder...)
}

// malformedRetryAfterFallsBack: "Retry-After: NaN" is ignored and the
// computed delays apply.
func malformedRetryAfterFallsBack(t fixture, withBackoff backoffFunc) error {
	h := newHarness(t, rateLimited.Header("Retry-After", "NaN").Times(2), answer)
	h.start(t, withBackoff, llmclient.Options{MaxAttempts: 3})
	h.clk.Step(time.Minute)
	return retrytest.CheckAttemptsAt(h.tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
}
