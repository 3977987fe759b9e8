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

// echo answers with the body it was sent.
type echo struct{}

func (echo) RoundTrip(req *http.Request) (*http.Response, error) {
	b, err := io.ReadAll(req.Body)
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(string(b)))}, err
}

// tracked is a body that records whether it was closed.
type tracked struct {
	io.Reader
	closed bool
}

func (b *tracked) Close() error { b.closed = true; return nil }

// The body is read and closed before rt is called, and rt reads a copy.
func TestHonourContextBody(t *testing.T) {
	body := &tracked{Reader: strings.NewReader(`{"item":1}`)}
	req, _ := http.NewRequest(http.MethodPost, "https://api.example.com/", body)
	resp, err := HonourContext(echo{}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	if string(got) != `{"item":1}` || !body.closed {
		t.Errorf("rt read %q, the caller's body closed: %v; want {\"item\":1}, true", got, body.closed)
	}
}
