// Package nethttp gives the suite's scripted transport the one behaviour
// of net/http's Transport that the SDK clients' per-attempt timeouts rely
// on: a request ends when its context does.
//
// The conformance suite's AttemptTimeout property hangs the first request
// of a call deaf to its context, as it hangs a loop's operation; but a
// client built on http.Client waits in Client.Do until its RoundTripper
// returns, and net/http's Transport returns as soon as the request's
// context is done, which is what every per-attempt timeout of these
// clients counts on (a context.WithTimeout per attempt, or
// http.Client.Timeout). Without this wrapper no such client could pass
// the property, and the failure would hide what the client does when its
// attempt is cut. It goes once the suite's hung request ends with its
// context.
package nethttp

import (
	"bytes"
	"io"
	"net/http"

	"github.com/retrykit/retrykit/retrytest/conformance"
)

// HonourContext returns rt, but a request ends with its context's error
// as soon as its context is done, whether or not rt has answered; an
// answer that comes later is closed. The request's body is read before
// rt is called, and rt gets a copy.
func HonourContext(rt http.RoundTripper) http.RoundTripper { return honour{rt} }

type honour struct{ rt http.RoundTripper }

type result struct {
	resp *http.Response
	err  error
}

func (h honour) RoundTrip(req *http.Request) (*http.Response, error) {
	// The body is read here, as a transport writes it to the wire first,
	// so that rt, which may go on after this returns, never touches the
	// caller's body again: a client rewinds it for its next attempt.
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	ch := make(chan result) // unbuffered: taken, or the answer is closed
	gone := make(chan struct{})
	go func() {
		resp, err := h.rt.RoundTrip(req)
		select {
		case ch <- result{resp, err}:
		case <-gone:
			if resp != nil {
				resp.Body.Close()
			}
		}
	}()
	select {
	case r := <-ch:
		return r.resp, r.err
	case <-req.Context().Done():
		close(gone)
		return nil, req.Context().Err()
	}
}

// Adapter returns newClient with Seams.Transport wrapped by HonourContext,
// for a configuration with a per-attempt timeout.
func Adapter(newClient func(conformance.Seams) conformance.Do) func(conformance.Seams) conformance.Do {
	return func(s conformance.Seams) conformance.Do {
		s.Transport = HonourContext(s.Transport)
		return newClient(s)
	}
}
