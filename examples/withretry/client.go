package withretry

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
)

// Client calls an HTTP API, retrying each call with WithRetry. Its
// dependencies are fields with real defaults.
//
// A Client is safe for concurrent use once its fields are set.
type Client struct {
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// Options are the retry settings.
	Options Options
	// Deps are WithRetry's sleep and random source, and the clock the
	// Client reads Retry-After dates against.
	Deps Deps
}

// Get fetches url and returns the response body.
func (c *Client) Get(ctx context.Context, url string) ([]byte, error) {
	return c.do(ctx, http.MethodGet, url, nil, "")
}

// Post sends body to url and returns the response body. A POST has a side
// effect — a charge, a message — so every attempt of one call carries the
// same Idempotency-Key, made once before the first attempt: a server that
// honours the key applies the side effect once, however often the call is
// retried.
func (c *Client) Post(ctx context.Context, url string, body []byte) ([]byte, error) {
	return c.do(ctx, http.MethodPost, url, body, newIdempotencyKey())
}

func (c *Client) do(ctx context.Context, method, url string, body []byte, key string) ([]byte, error) {
	deps := c.Deps.withDefaults()
	return WithRetry(ctx, func(ctx context.Context, _ int) ([]byte, error) {
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		resp, err := c.httpClient().Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if err := ResponseError(resp, deps.Now()); err != nil {
			return nil, err
		}
		return b, nil
	}, c.Options, deps)
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// newIdempotencyKey returns 128 random bits in hex.
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
