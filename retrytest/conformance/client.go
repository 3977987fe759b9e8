package conformance

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// callHeader numbers the calls of one client, so that their requests can
// be told apart.
const callHeader = "X-Conformance-Call"

// callKey carries a call's number in its request's context, for a client
// that builds requests of its own instead of sending the one it was given.
type callKey struct{}

// tagger numbers a request that lost the call's header from its context,
// and holds the reply of the first request of a trial that hangs
// (trial.hangUntil).
type tagger struct {
	rt http.RoundTripper
	tr *trial
}

func (tg tagger) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get(callHeader) == "" {
		if n, ok := r.Context().Value(callKey{}).(int); ok {
			r = r.Clone(r.Context())
			r.Header.Set(callHeader, strconv.Itoa(n))
		}
	}
	resp, err := tg.rt.RoundTrip(r)
	if tg.tr.hang != nil && tg.tr.hung.CompareAndSwap(false, true) {
		// The server never answers; the request ends when its context
		// does, as net/http's Transport ends it (every per-attempt
		// timeout of a client on http.Client counts on that), or, for
		// code that abandons attempts, when the suite lets it go.
		if herr := tg.tr.hangUntil(r.Context()); herr != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, herr
		}
	}
	return resp, err
}

// send makes one call of a client: a POST with a body, numbered n in its
// header and its context.
func send(ctx context.Context, do Do, n int) error {
	ctx = context.WithValue(ctx, callKey{}, n)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/items", strings.NewReader(`{"item":1}`))
	if err != nil {
		return err
	}
	req.Header.Set(callHeader, strconv.Itoa(n))
	resp, err := do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		return fmt.Errorf("conformance: the client returned %s", resp.Status)
	}
	return nil
}

// clientCall is the schedule of one call of a client: the requests that
// carried its number, timed from its start.
type clientCall struct{ cl *call }

func (cc clientCall) RetrySchedule() (attempts []time.Duration, results []string, waits []time.Duration, untimed string) {
	attempts, results = []time.Duration{}, []string{}
	n := strconv.Itoa(cc.cl.n)
	for _, r := range cc.cl.tr.tr.Requests() {
		if r.Header.Get(callHeader) == n {
			attempts = append(attempts, r.At.Sub(cc.cl.start))
			results = append(results, r.Result)
		}
	}
	return attempts, results, nil, ""
}
