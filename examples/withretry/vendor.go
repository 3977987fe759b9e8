package withretry

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// VendorClient has the shape of a vendor SDK's client: it retries 429s and
// 5xx responses by itself, waiting on timers of the time package and
// drawing its jitter from math/rand/v2's global source. Neither can be
// injected, so a test runs it inside a testing/synctest bubble, where the
// time package is fake, and checks its delays against their windows.
//
// Wrapped in WithRetry, its retries multiply with WithRetry's: three
// attempts around three attempts are nine requests.
type VendorClient struct {
	hc         *http.Client
	maxRetries int
}

// NewVendorClient returns a client that sends requests with hc and retries
// a failed request up to maxRetries times (vendors default to 2; 0
// disables its retries). Its waits start at 500ms and double, each within
// ±25%, unless the response says Retry-After in whole seconds, 0 to 60.
func NewVendorClient(hc *http.Client, maxRetries int) *VendorClient {
	return &VendorClient{hc: hc, maxRetries: maxRetries}
}

// VendorError is the error a VendorClient returns for a response whose
// status is 400 or above, once it stops retrying.
type VendorError struct {
	// StatusCode is the response's status code.
	StatusCode int
}

// Error returns "vendor: " and the status line.
func (e *VendorError) Error() string {
	return fmt.Sprintf("vendor: %d %s", e.StatusCode, http.StatusText(e.StatusCode))
}

// Get fetches url and returns the response body.
func (c *VendorClient) Get(ctx context.Context, url string) ([]byte, error) {
	for retry := 0; ; retry++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 400 {
			return body, nil
		}
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !retryable || retry == c.maxRetries {
			return nil, &VendorError{StatusCode: resp.StatusCode}
		}
		wait := time.Duration(float64(500*time.Millisecond<<min(retry, 16)) * (0.75 + 0.5*rand.Float64()))
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 && s <= 60 {
			wait = time.Duration(s) * time.Second
		}
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
	}
}
