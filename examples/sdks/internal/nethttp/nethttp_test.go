package nethttp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// rt answers after release is closed, deaf to the request's context, and
// records that the late answer's body was closed.
type rt struct {
	release chan struct{}
	closed  chan struct{}
}

func (r rt) RoundTrip(*http.Request) (*http.Response, error) {
	<-r.release
	return &http.Response{StatusCode: 200, Body: closer{strings.NewReader("ok"), r.closed}}, nil
}

type closer struct {
	io.Reader
	closed chan struct{}
}

func (c closer) Close() error { close(c.closed); return nil }

// A request whose context ends returns then, with its error; the answer
// that comes later is closed, and nothing is left running.
func TestHonourContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := rt{release: make(chan struct{}), closed: make(chan struct{})}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/", nil)
		start := time.Now()
		_, err := HonourContext(inner).RoundTrip(req)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Errorf("RoundTrip = %v after %s, want context.DeadlineExceeded after 1s", err, time.Since(start))
		}
		close(inner.release)
		<-inner.closed
	})
}

// An answer that comes first is returned as it is.
func TestHonourContextAnswer(t *testing.T) {
	inner := rt{release: make(chan struct{}), closed: make(chan struct{})}
	close(inner.release)
	req, _ := http.NewRequest(http.MethodGet, "https://api.example.com/", nil)
	resp, err := HonourContext(inner).RoundTrip(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("RoundTrip = %v, %v, want the 200", resp, err)
	}
	resp.Body.Close()
}
