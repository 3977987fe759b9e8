package webhook

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"

	"github.com/jonboulle/clockwork"
)

// Event is one webhook to deliver.
type Event struct {
	// ID identifies the event. Every delivery of it carries the ID as its
	// Idempotency-Key, so an endpoint can drop a retry of a delivery it
	// already processed.
	ID string
	// URL is the endpoint to POST to.
	URL string
	// Payload is the JSON body.
	Payload []byte
}

// Worker delivers webhook events and schedules failed deliveries for
// retry as Decide decides. It is the thin adapter between the pure
// policy and the machinery: it translates a Decision into a timer on
// its Clock, or into giving up. Every dependency is a field with a real
// default, so a test can swap in a scripted transport, a fake clock and a
// fixed random source.
//
// A Worker is safe for concurrent use once its fields are set.
type Worker struct {
	// Client sends the deliveries; nil means http.DefaultClient.
	Client *http.Client
	// Clock schedules the retries and dates the responses; nil means the
	// real clock.
	Clock clockwork.Clock
	// Rand draws the jitter; nil means a source seeded by the runtime.
	Rand *rand.Rand
	// Done, if not nil, is called once per event, when a delivery
	// succeeds (err is nil) or the event is given up (err is the last
	// delivery's error). It runs on the goroutine that made the last
	// delivery.
	Done func(ev Event, err error)
}

// Deliver POSTs ev now, as delivery number attempt (0 for a new event,
// n for its n-th retry: the framework's retry count). If the delivery
// fails, Deliver asks the policy and either schedules delivery attempt+1
// on the clock after the policy's delay or gives the event up. It returns
// this delivery's error.
//
// A scheduled retry runs in its own goroutine. Once ctx is done, a failed
// delivery is given up instead of retried.
func (w *Worker) Deliver(ctx context.Context, ev Event, attempt int) error {
	err := w.post(ctx, ev)
	if err == nil || ctx.Err() != nil {
		w.done(ev, err)
		return err
	}
	d := Decide(attempt, err, w.rng())
	if !d.Retry {
		w.done(ev, err)
		return err
	}
	w.clock().AfterFunc(d.Delay, func() { _ = w.Deliver(ctx, ev, attempt+1) })
	return err
}

// post makes one delivery of ev and returns its error: a transport error,
// a *StatusError, or nil for a 2xx response.
func (w *Worker) post(ctx context.Context, ev Event) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ev.URL, bytes.NewReader(ev.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", ev.ID)
	resp, err := w.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so the connection is reused
	return ResponseError(resp, w.clock().Now())
}

func (w *Worker) done(ev Event, err error) {
	if w.Done != nil {
		w.Done(ev, err)
	}
}

func (w *Worker) client() *http.Client {
	if w.Client != nil {
		return w.Client
	}
	return http.DefaultClient
}

func (w *Worker) clock() clockwork.Clock {
	if w.Clock != nil {
		return w.Clock
	}
	return clockwork.NewRealClock()
}

func (w *Worker) rng() *rand.Rand {
	if w.Rand != nil {
		return w.Rand
	}
	return runtimeRand
}

// runtimeRand draws from math/rand/v2's top-level functions, which the
// runtime seeds and which are safe for concurrent use; a *rand.Rand keeps
// no state of its own besides its source, so runtimeRand is safe too.
var runtimeRand = rand.New(runtimeSource{})

type runtimeSource struct{}

func (runtimeSource) Uint64() uint64 { return rand.Uint64() }
